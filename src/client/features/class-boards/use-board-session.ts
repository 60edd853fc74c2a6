import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useProfile } from '../session/profile.ts';
import { useDashboardRole } from '../session/use-dashboard-role.ts';
import type { UseBoardSessionResult } from './board-model.ts';
import { ClassBoardSession } from './board-session.ts';

/**
 * The signed-in person's session on a class's board while the screen shows it (board-model.ts):
 * the browser's copy painted first, then the server's board, live. Under the dashboard's guard,
 * which has the profile (every stroke names its author, and the browser's copy is theirs).
 */
export function useBoardSession(classId: string): UseBoardSessionResult {
  const profile = useProfile(useDashboardRole());
  if (!profile) throw new Error('useBoardSession is for screens under the dashboard guard (it needs the profile)');
  const { _id: userId, name } = profile;
  const session = useMemo(() => new ClassBoardSession({ classId, me: { id: userId, name } }), [classId, userId, name]);
  useEffect(() => {
    void session.start();
    return () => session.disposeSoon();
  }, [session]);
  const state = useSyncExternalStore(session.subscribe, session.getSnapshot);
  return { state, session };
}
