import { useQueryClient } from '@tanstack/react-query';
import type { StudentProfile, TeacherProfile } from '#shared/accounts';
import { useAppStore } from '../../stores/app-store.ts';
import { profileQueryKey } from '../session/role-guard.tsx';

/**
 * The logged-in teacher. The guard fills the store slice in an effect, after
 * the screen's first render; the profile it fetched is already cached then.
 */
export function useTeacherProfile(): TeacherProfile | undefined {
  const stored = useAppStore((state) => state.teacher);
  const queryClient = useQueryClient();
  return stored ?? queryClient.getQueryData<TeacherProfile>(profileQueryKey('teacher'));
}

/** The logged-in student (same timing as useTeacherProfile). */
export function useStudentProfile(): StudentProfile | undefined {
  const stored = useAppStore((state) => state.student);
  const queryClient = useQueryClient();
  return stored ?? queryClient.getQueryData<StudentProfile>(profileQueryKey('student'));
}
