import { useEffect } from 'react';
import toast from 'react-hot-toast/headless';
import { create } from 'zustand';

/** The id of the study shell's break reminder toast (one at a time). */
export const BREAK_REMINDER_TOAST_ID = 'break-reminder';

/** How many screens on show ask for no break reminder (a quiz attempt, a meeting). */
const useQuietTime = create<{ holders: number }>(() => ({ holders: 0 }));

/**
 * While the calling screen is mounted (and `isActive`), the study shell shows no break
 * reminder: a student in a timed quiz or in a meeting is not to be told to stop. A reminder
 * already on screen goes.
 */
export function useNoBreakReminders(isActive = true) {
  useEffect(() => {
    if (!isActive) return;
    useQuietTime.setState((state) => ({ holders: state.holders + 1 }));
    toast.dismiss(BREAK_REMINDER_TOAST_ID);
    return () => useQuietTime.setState((state) => ({ holders: state.holders - 1 }));
  }, [isActive]);
}

/** Read when the reminder is due, so a quiz started between two reminders silences the next. */
export const areBreakRemindersPaused = () => useQuietTime.getState().holders > 0;
