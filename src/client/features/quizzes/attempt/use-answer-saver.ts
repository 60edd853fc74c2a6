import { t } from '@lingui/core/macro';
import { useEffect, useEffectEvent, useState, useSyncExternalStore } from 'react';
import toast from 'react-hot-toast/headless';
import { saveAnswers } from '#shared/contract/quizzes';
import { call } from '../../../lib/api.ts';
import { readSession } from '../../../lib/session.ts';
import { createAnswerOutbox, type AnswerOutbox } from './answer-outbox.ts';

/**
 * One outbox per attempt and session, for the life of the page: leaving the attempt screen
 * does not drop its choices, and coming back finds the same outbox (decision 022). Keyed by
 * the token too, so choices always go with the session that made them, even after a logout.
 */
type Delivery = {
  /** Its toasts' id (not the token: that stays out of the toast store). */
  toastId: string;
  quizId: string;
  title: string;
  outbox: AnswerOutbox;
  isOnScreen: boolean;
  /** Told (by a toast) that some answers are not saved yet. */
  hasWarned: boolean;
};

const deliveries = new Map<string, Delivery>();

function deliveryFor(quizId: string, title: string): Delivery {
  const token = readSession()?.token;
  const key = `answers:${quizId}:${token ?? ''}`;
  const known = deliveries.get(key);
  if (known) return Object.assign(known, { title });
  listenToThePage();
  const outbox = createAnswerOutbox((answers, { keepalive }) =>
    call(saveAnswers, { params: { id: quizId }, body: { answers } }, { keepalive, token }),
  );
  const toastId = `answers:${quizId}:${deliveries.size}`;
  const delivery: Delivery = { toastId, quizId, title, outbox, isOnScreen: false, hasWarned: false };
  outbox.subscribe(() => tellWhileAway(delivery));
  deliveries.set(key, delivery);
  return delivery;
}

let isListening = false;

/** Hidden (tab switched, phone locked, tab closing) or back online: every outbox, on screen or not. */
function listenToThePage() {
  if (isListening) return;
  isListening = true;
  const sendBeforeHiding = () => {
    for (const { outbox } of deliveries.values()) outbox.sendBeforeHiding();
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') sendBeforeHiding();
  });
  window.addEventListener('pagehide', sendBeforeHiding);
  window.addEventListener('online', () => {
    for (const { outbox } of deliveries.values()) void outbox.flush();
  });
}

/** Off the attempt screen, the student hears about their choices through toasts. */
function tellWhileAway(delivery: Delivery) {
  const { toastId, title, outbox } = delivery;
  if (delivery.isOnScreen) return;
  const state = outbox.getState();
  if (state.status === 'retrying' && !delivery.hasWarned) {
    delivery.hasWarned = true;
    toast.error(
      t`Your last answers in “${title}” are not saved yet. Keep this tab open: they are sent once the server can be reached.`,
      { id: toastId },
    );
  } else if (state.status === 'saved' && delivery.hasWarned) {
    delivery.hasWarned = false;
    toast.success(t`Your answers in “${title}” are saved.`, { id: toastId });
  } else if ((state.status === 'over' || state.status === 'refused') && Object.keys(state.lost).length > 0) {
    const reason = state.message;
    toast.error(t`Your last answers in “${title}” could not be saved: ${reason}`, { id: toastId });
  }
}

/** The attempt screen shows `delivery`; the returned function runs when the screen goes. */
function showOnScreen(delivery: Delivery) {
  // On the screen, its status line speaks for the answers.
  delivery.isOnScreen = true;
  delivery.hasWarned = false;
  toast.dismiss(delivery.toastId);
  return () => {
    // Leaving the screen (menu, header, back button): what is waiting goes now.
    delivery.isOnScreen = false;
    void delivery.outbox.flush();
    tellWhileAway(delivery);
  };
}

/** Resolves once no answers of this quiz are on their way, so a read after it includes them. */
export async function settledAnswerSaves(quizId: string): Promise<void> {
  const saving = [...deliveries.values()].filter((delivery) => delivery.quizId === quizId);
  await Promise.all(saving.map(({ outbox }) => outbox.settled()));
}

/**
 * Saves a student's choices as they are made (debounced), before any submission, when the
 * screen is left and when the page is hidden; retries what could not be delivered. `onOver`
 * runs when the server says the attempt is over (time up, or submitted from another tab).
 */
export function useAnswerSaver(quizId: string, title: string, onOver: () => void) {
  const [delivery] = useState(() => deliveryFor(quizId, title));
  const { outbox } = delivery;
  const state = useSyncExternalStore(outbox.subscribe, outbox.getState);

  useEffect(() => showOnScreen(delivery), [delivery]);

  const handleOver = useEffectEvent(onOver);
  useEffect(() => {
    if (state.status === 'over') handleOver();
  }, [state]);

  return {
    state,
    queue: outbox.queue,
    flushForSubmission: outbox.flushForSubmission,
    close: outbox.close,
    unacknowledged: outbox.unacknowledged,
  };
}
