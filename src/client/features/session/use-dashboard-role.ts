import { useLocation } from 'react-router';
import type { UserRole } from '#shared/constants';

/** Whose dashboard a page shared by both roles is shown in (its route is under /dashboard/<role>/). */
export function useDashboardRole(): UserRole {
  return useLocation().pathname.startsWith('/dashboard/student') ? 'student' : 'teacher';
}
