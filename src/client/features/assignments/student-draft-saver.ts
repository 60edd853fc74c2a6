import { useEffect, useState, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getStudentAssignment, handInWork, saveHandInDraft } from '#shared/contract/assignments';
import { ASSIGNMENT_LIMITS, type StudentAssignment } from '#shared/assignments';
import { ApiError, call, isWorthRetrying } from '../../lib/api.ts';
import { storeStudentAssignment } from './student-assignment-queries.ts';
import {
  dropDraftCopy,
  readDraftCopy,
  reconcileDraft,
  writeDraftCopy,
  type ServerDraft,
} from './student-draft-copy.ts';

/** A draft is saved this long after the last keystroke: a sentence is one request, not one per letter. */
export const DRAFT_SAVE_DEBOUNCE_MS = 1000;
/** Waits between attempts to deliver a draft the server could not be reached for; the last repeats. */
export const DRAFT_RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 15_000] as const;

export type DraftStatus =
  /** Nothing typed on this page yet. */
  | { kind: 'idle' }
  /** Typed and waiting for its save, or the save is on its way. */
  | { kind: 'saving' }
  | { kind: 'saved' }
  /** `error`: why (no connection: tried again by itself; refused: kept on this device). */
  | { kind: 'not-saved'; error: ApiError | Error; willRetry: boolean };

/** The draft changed elsewhere since this page read it: this page's text and the server's. */
export type DraftConflict = { mine: string; theirs: ServerDraft };

export type DraftState = { text: string; status: DraftStatus; conflict: DraftConflict | null };

type DraftSaverOptions = {
  assignmentId: string;
  studentId: string;
  server: ServerDraft;
  /** Each answer of the server about this assignment (the screen and the groups follow it). */
  onAnswer(assignment: StudentAssignment): void;
};

const serverDraftOf = (assignment: StudentAssignment): ServerDraft =>
  assignment.handIn ? { text: assignment.handIn.text, version: assignment.handIn.version } : { text: '', version: 0 };

/**
 * One student's draft of one assignment on its way to the server (decision 064): saved
 * DRAFT_SAVE_DEBOUNCE_MS after the last keystroke, at once when the page is hidden or the editor
 * left, one request at a time with the version it read (compare-and-set, decision 058). What the
 * server has not acknowledged stays in localStorage. A refusal because the draft changed
 * elsewhere (HAND_IN_CHANGED) is never overwritten: the student sees both texts and chooses.
 */
export function createDraftSaver({ assignmentId, studentId, server, onAnswer }: DraftSaverOptions) {
  const start = reconcileDraft(readDraftCopy(studentId, assignmentId), server);
  let base: ServerDraft = server;
  let state: DraftState =
    start.kind === 'conflict'
      ? { text: start.mine, status: { kind: 'idle' }, conflict: { mine: start.mine, theirs: start.theirs } }
      : { text: start.text, status: { kind: start.isUnsaved ? 'saving' : 'idle' }, conflict: null };
  let inFlight: Promise<void> | null = null;
  let debounceTimer: ReturnType<typeof setTimeout> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  /** Refused for a reason typing again does not change (handed in elsewhere, archived): no more saves. */
  let isHalted = false;
  const listeners = new Set<() => void>();

  function update(next: Partial<DraftState>) {
    state = { ...state, ...next };
    for (const listener of [...listeners]) listener();
  }

  const isDirty = () => state.text !== base.text;

  /** The local copy follows the text: kept while it differs from what the server holds. */
  function keepCopy() {
    if (isDirty()) writeDraftCopy(studentId, assignmentId, { text: state.text, baseVersion: base.version });
    else dropDraftCopy(studentId, assignmentId);
  }

  function schedule(delay = DRAFT_SAVE_DEBOUNCE_MS) {
    clearTimeout(debounceTimer);
    debounceTimer = setTimeout(() => void flush(), delay);
  }

  /** The server's answer becomes the base the next save compares against. */
  function adopt(assignment: StudentAssignment) {
    base = serverDraftOf(assignment);
    failures = 0;
    onAnswer(assignment);
    keepCopy();
    if (isDirty()) {
      update({ status: { kind: 'saving' } });
      schedule();
    } else update({ status: { kind: 'saved' } });
  }

  /** Another tab or device was first: read what it saved, and let the student choose if it differs. */
  async function showConflict() {
    const current = (await call(getStudentAssignment, { params: { id: assignmentId } })).data;
    onAnswer(current);
    const theirs = serverDraftOf(current);
    if (current.handIn && current.handIn.state !== 'draft') {
      isHalted = true;
      return update({ status: { kind: 'not-saved', error: new ApiError('HAND_IN_LOCKED'), willRetry: false } });
    }
    if (theirs.text === state.text) {
      base = theirs;
      keepCopy();
      return update({ status: { kind: 'saved' } });
    }
    update({ conflict: { mine: state.text, theirs }, status: { kind: 'idle' } });
  }

  async function handleFailure(error: unknown) {
    if (isWorthRetrying(error)) {
      failures += 1;
      const delay = DRAFT_RETRY_DELAYS_MS[Math.min(failures, DRAFT_RETRY_DELAYS_MS.length) - 1];
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => void flush(), delay);
      return update({ status: { kind: 'not-saved', error: error as Error, willRetry: true } });
    }
    if (error instanceof ApiError && error.code === 'HAND_IN_CHANGED') {
      try {
        return await showConflict();
      } catch (readError) {
        return handleFailure(readError);
      }
    }
    // Refused for good (handed in elsewhere, archived, too long): the text stays on this device.
    if (error instanceof ApiError && error.code !== 'VALIDATION_FAILED') isHalted = true;
    update({ status: { kind: 'not-saved', error: error as Error, willRetry: false } });
  }

  async function deliver(text: string, keepalive: boolean) {
    try {
      const saved = await call(
        saveHandInDraft,
        { params: { id: assignmentId }, body: { text, version: base.version } },
        { keepalive },
      );
      adopt(saved.data);
    } catch (error) {
      await handleFailure(error);
    }
  }

  /** Sends the text now if the server does not hold it; resolves once nothing is on its way. */
  async function flush({ keepalive = false } = {}): Promise<void> {
    clearTimeout(debounceTimer);
    clearTimeout(retryTimer);
    while (inFlight) await inFlight;
    if (isHalted || state.conflict || !isDirty()) return;
    if (state.text.length > ASSIGNMENT_LIMITS.handInText) {
      return update({ status: { kind: 'not-saved', error: new ApiError('VALIDATION_FAILED'), willRetry: false } });
    }
    update({ status: { kind: 'saving' } });
    inFlight = deliver(state.text, keepalive).finally(() => {
      inFlight = null;
    });
    await inFlight;
  }

  return {
    getState: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },

    /** A keystroke: kept on this device at once, saved once typing pauses. */
    type(text: string) {
      if (state.conflict) return;
      if (isHalted && state.status.kind === 'not-saved' && !state.status.willRetry) isHalted = false;
      update({ text });
      keepCopy();
      if (isDirty()) {
        update({ status: { kind: 'saving' } });
        schedule();
      } else update({ status: { kind: 'saved' } });
    },

    flush,

    /** Keeps this page's text (saved over the other, now that it was seen) or takes the server's. */
    resolve(choice: 'mine' | 'theirs') {
      const conflict = state.conflict;
      if (!conflict) return;
      base = conflict.theirs;
      const text = choice === 'mine' ? conflict.mine : conflict.theirs.text;
      update({ conflict: null, text });
      keepCopy();
      if (choice === 'mine') void flush();
      else update({ status: { kind: 'saved' } });
    },

    /**
     * Hands the text in with the version this page holds, after any save on its way. A
     * HAND_IN_CHANGED shows the conflict and is thrown, like any other refusal, to the caller.
     */
    async handIn(): Promise<StudentAssignment> {
      clearTimeout(debounceTimer);
      clearTimeout(retryTimer);
      while (inFlight) await inFlight;
      try {
        const text = state.text;
        const handedIn = (
          await call(handInWork, { params: { id: assignmentId }, body: { text, version: base.version } })
        ).data;
        isHalted = true;
        base = serverDraftOf(handedIn);
        dropDraftCopy(studentId, assignmentId);
        onAnswer(handedIn);
        update({ status: { kind: 'saved' } });
        return handedIn;
      } catch (error) {
        if (error instanceof ApiError && error.code === 'HAND_IN_CHANGED') await showConflict().catch(() => undefined);
        throw error;
      }
    },

    /** A newer draft read from the server (another tab saved, the page refetched): taken when nothing here is unsaved. */
    follow(assignment: StudentAssignment) {
      const server = serverDraftOf(assignment);
      if (inFlight || state.conflict || isDirty() || server.version <= base.version) return;
      base = server;
      update({ text: server.text });
    },

    /**
     * This page changed the hand-in another way (a file added or removed, decision 061): the
     * server's answer is the version the next save compares against. More than one ahead means
     * something else changed it too: read it, as after a refused save.
     */
    adoptOwnChange(version: number) {
      if (version === base.version + 1) base = { ...base, version };
      else if (version > base.version) void showConflict().catch(() => undefined);
    },

    /** The editor is gone: what is not saved leaves now (in a request that outlives the page). */
    close() {
      void flush({ keepalive: true });
    },
  };
}

export type DraftSaver = ReturnType<typeof createDraftSaver>;

/**
 * The draft saver of the hand-in editor on screen: started from the local copy and the server's
 * draft, saving when the page is hidden, when the connection comes back and when the editor goes.
 */
export function useDraftSaver(assignment: StudentAssignment, studentId: string) {
  const queryClient = useQueryClient();
  const [saver] = useState(() =>
    createDraftSaver({
      assignmentId: assignment._id,
      studentId,
      server: serverDraftOf(assignment),
      onAnswer: (answer) => storeStudentAssignment(queryClient, answer),
    }),
  );
  const state = useSyncExternalStore(saver.subscribe, saver.getState);

  useEffect(() => {
    // A copy newer than the server's (typed offline, or its save lost with a closed tab) goes now.
    if (saver.getState().status.kind === 'saving') void saver.flush();
    const sendBeforeHiding = () => {
      if (document.visibilityState === 'hidden') void saver.flush({ keepalive: true });
    };
    const sendNow = () => void saver.flush();
    document.addEventListener('visibilitychange', sendBeforeHiding);
    window.addEventListener('pagehide', saver.close);
    window.addEventListener('online', sendNow);
    return () => {
      document.removeEventListener('visibilitychange', sendBeforeHiding);
      window.removeEventListener('pagehide', saver.close);
      window.removeEventListener('online', sendNow);
      saver.close();
    };
  }, [saver]);

  useEffect(() => saver.follow(assignment), [saver, assignment]);

  return { saver, state };
}
