import { create } from 'zustand';
import type { StudentProfile, TeacherProfile } from '#shared/accounts';

/**
 * Client-side state of SPEC §3: a teacher slice and a student slice (each
 * replaced wholesale) and the global loading flag. The flag's name value is
 * kept for parity with the spec; nothing reads it.
 */
type AppState = {
  teacher: TeacherProfile | null;
  student: StudentProfile | null;
  loading: { isLoading: boolean; name: string };
  setTeacher(teacher: TeacherProfile | null): void;
  setStudent(student: StudentProfile | null): void;
  setLoading(isLoading: boolean, name?: string): void;
  clearUsers(): void;
};

export const useAppStore = create<AppState>()((set) => ({
  teacher: null,
  student: null,
  loading: { isLoading: false, name: '' },
  setTeacher: (teacher) => set({ teacher }),
  setStudent: (student) => set({ student }),
  setLoading: (isLoading, name = '') => set({ loading: { isLoading, name } }),
  clearUsers: () => set({ teacher: null, student: null }),
}));

/** Raises the global loading flag around one piece of work, lowering it whatever happens. */
export async function withLoading<T>(work: () => Promise<T>, name = ''): Promise<T> {
  useAppStore.getState().setLoading(true, name);
  try {
    return await work();
  } finally {
    useAppStore.getState().setLoading(false);
  }
}
