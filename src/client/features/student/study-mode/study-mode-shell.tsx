import { t as translate } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Coffee, LogOut, Maximize } from 'lucide-react';
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast/headless';
import { STUDY_MODE } from '#shared/constants';
import { Button } from '../../../components/ui/button.tsx';
import { useAppStore } from '../../../stores/app-store.ts';
import { useLogout } from '../../session/use-logout.ts';
import { readSession } from '../../../lib/session.ts';
import { isLeaveConfirmationSuppressed } from './leave-confirmation.ts';
import { areBreakRemindersPaused, BREAK_REMINDER_TOAST_ID } from './quiet-time.ts';
import { useFullscreen } from '../../../lib/use-fullscreen.ts';
import { useIsOutsideStudyMode } from '../../../components/layout/focused-layout.tsx';

/**
 * A shorter break interval for tests and demos, read once per dashboard load from
 * localStorage (`studyhall:break-reminder-ms`); the SPEC's 30 s otherwise.
 */
export const BREAK_REMINDER_OVERRIDE_KEY = 'studyhall:break-reminder-ms';

const FULLSCREEN_NOTICE_TOAST_ID = 'fullscreen-notice';

function breakReminderInterval(): number {
  const override = Number(window.localStorage.getItem(BREAK_REMINDER_OVERRIDE_KEY));
  return Number.isFinite(override) && override >= 500 ? override : STUDY_MODE.breakReminderMs;
}

/**
 * Making the page inert drops the focus; while `isActive` (a short load), keep the
 * focused element and give the focus back when it ends, so keyboard users keep their place.
 */
function useFocusKeptThrough(isActive: boolean) {
  useEffect(() => {
    if (!isActive) return;
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => {
      if (focused?.isConnected && document.activeElement !== focused) focused.focus();
    };
  }, [isActive]);
}

/** Typing an f into a field must not throw the page into full screen. */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * The student dashboard's study mode (SPEC §4): full screen with the key f, a
 * blocking overlay while not in full screen, a reminder when the window loses
 * focus, a confirmation before leaving, and a break reminder every 30 s.
 *
 * It never traps anyone: the overlay says why it is there, its button does
 * what f does (touch and screen-reader users), a browser that refuses full
 * screen gets a way to continue, and logging out is always one button away;
 * `gateLinks` show on the overlay (the way to a live game). A route that asks
 * for it (decision 070: a live game's PIN page and player screen) is let
 * through: no overlay and none of study mode's rules.
 */
export function StudyModeShell({ children, gateLinks }: { children: ReactNode; gateLinks?: ReactNode }) {
  const { isFullscreen, isSupported, requestFullscreen } = useFullscreen();
  const [isRefused, setIsRefused] = useState(false);
  const [hasWaivedFullscreen, setHasWaivedFullscreen] = useState(false);
  const isOn = !useIsOutsideStudyMode();
  const isBlocked = isOn && isSupported && !isFullscreen && !hasWaivedFullscreen;
  // SPEC §4: the loading flag blocks student pages too (the global spinner shows; here nothing behind takes input).
  const isLoading = useAppStore((state) => state.loading.isLoading);
  useFocusKeptThrough(isLoading && !isBlocked);

  const enterFullscreen = useCallback(async () => {
    try {
      await requestFullscreen();
      setIsRefused(false);
    } catch {
      setIsRefused(true);
    }
  }, [requestFullscreen]);

  return (
    <>
      {isOn ? (
        <StudyModeRules isFullscreen={isFullscreen} isSupported={isSupported} enterFullscreen={enterFullscreen} />
      ) : null}
      {/* inert: while blocked, nothing behind the overlay takes focus or clicks. */}
      <div inert={isBlocked || isLoading} className="contents">
        {children}
      </div>
      {isBlocked ? (
        <FullscreenOverlay
          isRefused={isRefused}
          onEnterFullscreen={() => void enterFullscreen()}
          onContinueWithout={() => setHasWaivedFullscreen(true)}
          links={gateLinks}
        />
      ) : null}
    </>
  );
}

/** Study mode's rules beside its overlay, mounted while the screen shown is in study mode. */
function StudyModeRules({
  isFullscreen,
  isSupported,
  enterFullscreen,
}: {
  isFullscreen: boolean;
  isSupported: boolean;
  enterFullscreen(): Promise<void>;
}) {
  // The key f, anywhere but in a text field. Listening from the commit (a layout effect), not after the
  // paint: a navigation renders in a transition, whose passive effects can run after the overlay shows,
  // and an f pressed in between was lost.
  useLayoutEffect(() => {
    const handleKeyDown = (event: KeyboardEvent) => {
      // By key or by position, so students with a non-Latin keyboard layout have an f too.
      const isFullscreenKey = event.key.toLowerCase() === STUDY_MODE.fullscreenKey || event.code === 'KeyF';
      if (!isFullscreenKey || event.repeat) return;
      if (event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return;
      void enterFullscreen();
    };
    window.addEventListener('keydown', handleKeyDown);
    return () => window.removeEventListener('keydown', handleKeyDown);
  }, [enterFullscreen]);

  // Losing focus to another window or tab (not to a video player's frame inside the page).
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const handleBlur = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        // The texts of STUDY_MODE (SPEC §4), worded in the active locale when they show.
        if (!document.hasFocus()) window.alert(translate`Don't forget about your goals!! Study hard, soldier!!`);
      }, 0);
    };
    window.addEventListener('blur', handleBlur);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('blur', handleBlur);
    };
  }, []);

  // Leaving or reloading asks first; after logging out it never asks. The session is cleared before
  // React unmounts this shell, and a reload in between must not ask either.
  useEffect(() => {
    const handleBeforeUnload = (event: BeforeUnloadEvent) => {
      if (isLeaveConfirmationSuppressed() || !readSession()) return;
      event.preventDefault();
      event.returnValue = ''; // older browsers need it set to show the question
    };
    window.addEventListener('beforeunload', handleBeforeUnload);
    return () => window.removeEventListener('beforeunload', handleBeforeUnload);
  }, []);

  // On load: say how to start (SPEC §9: gone after 2 s, or as soon as full screen is on).
  useEffect(() => {
    if (!isSupported || document.fullscreenElement) return;
    toast(translate`This app cannot be used until you are in full screen mode. Press f to enter full screen.`, {
      id: FULLSCREEN_NOTICE_TOAST_ID,
      duration: STUDY_MODE.fullscreenNoticeMs,
      icon: <Maximize className="size-5 shrink-0 text-brand-700" aria-hidden="true" />,
    });
    return () => toast.dismiss(FULLSCREEN_NOTICE_TOAST_ID);
  }, [isSupported]);
  useEffect(() => {
    if (isFullscreen) toast.dismiss(FULLSCREEN_NOTICE_TOAST_ID);
  }, [isFullscreen]);

  // While in full screen: a break reminder on an interval, except during a quiz attempt or a meeting.
  useEffect(() => {
    if (!isFullscreen) return;
    const interval = setInterval(() => {
      if (areBreakRemindersPaused()) return;
      toast(translate`Take a short break`, {
        id: BREAK_REMINDER_TOAST_ID,
        icon: <Coffee className="size-5 shrink-0 text-brand-700" aria-hidden="true" />,
      });
    }, breakReminderInterval());
    return () => clearInterval(interval);
  }, [isFullscreen]);

  return null;
}

function FullscreenOverlay(props: {
  isRefused: boolean;
  onEnterFullscreen(): void;
  onContinueWithout(): void;
  links?: ReactNode;
}) {
  const logout = useLogout();
  const { t } = useLingui();
  const titleId = useId();
  const descriptionId = useId();
  const enterButton = useRef<HTMLButtonElement>(null);

  // From the commit too, so a key pressed as soon as the overlay shows is on its button.
  useLayoutEffect(() => {
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    enterButton.current?.focus();
    // Back in full screen, the student carries on where they were.
    return () => {
      if (previouslyFocused?.isConnected) previouslyFocused.focus();
    };
  }, []);

  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      data-testid="study-mode-overlay"
      className="fixed inset-0 z-[90] flex items-center justify-center overflow-y-auto bg-surface-inverse/85 p-4"
    >
      <div className="w-full max-w-md rounded-2xl bg-surface p-6 text-center shadow-xl sm:p-8">
        <Maximize className="mx-auto size-10 text-brand-700" aria-hidden="true" />
        <h2 id={titleId} className="mt-4 text-xl font-bold text-fg">
          {t`Study mode: full screen`}
        </h2>
        <p id={descriptionId} className="mt-2 text-muted">
          <Trans>
            StudyHall is used in full screen while you study, so nothing else competes for your attention. Press{' '}
            <kbd className="rounded border border-line-strong bg-surface-muted px-1.5 font-mono text-sm">f</kbd> or use
            the button.
          </Trans>
        </p>
        <Button ref={enterButton} className="mt-6 w-full justify-center" onClick={props.onEnterFullscreen}>
          <Maximize className="size-4" aria-hidden="true" />
          {t`Enter full screen`}
        </Button>
        {props.links}
        {props.isRefused ? (
          <div role="alert" className="mt-4 rounded-lg bg-warning-soft p-3 text-sm text-warning">
            <p>{t`Your browser did not allow full screen here.`}</p>
            <Button variant="secondary" className="mt-3 w-full justify-center" onClick={props.onContinueWithout}>
              {t`Continue without full screen`}
            </Button>
          </div>
        ) : null}
        <Button variant="ghost" className="mt-3 w-full justify-center" onClick={() => void logout()}>
          <LogOut className="size-4 rtl:-scale-x-100" aria-hidden="true" />
          {t`Log out`}
        </Button>
      </div>
    </div>
  );
}
