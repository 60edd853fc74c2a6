import { useEffect, useState, useSyncExternalStore } from 'react';
import { LiveSession } from './live-session.ts';

/** The page's session of one game while its screen shows it, and its snapshot. */
export function useLiveSession(gameId: string) {
  const [session] = useState(() => new LiveSession(gameId));
  useEffect(() => {
    session.start();
    return () => session.disposeSoon();
  }, [session]);
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot);
  return { session, snapshot };
}
