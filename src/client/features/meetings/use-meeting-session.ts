import { useEffect, useSyncExternalStore } from 'react';
import type { MeetingSession } from './meeting-session.ts';

/** Runs a session while the meeting screen shows it, and reads its snapshot. */
export function useMeetingSession(session: MeetingSession) {
  useEffect(() => {
    session.start();
    return () => session.disposeSoon();
  }, [session]);
  return useSyncExternalStore(session.subscribe, session.getSnapshot);
}
