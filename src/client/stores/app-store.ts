import { create } from 'zustand';

/**
 * Client-side state that is not the server's: the global loading flag (SPEC §3). The
 * teacher and student slices of the spec are the profile query (useProfile in
 * features/session/profile.ts): server state lives in the query cache only. The flag's
 * name value is kept for parity with the spec; nothing reads it.
 */
type AppState = {
  loading: { isLoading: boolean; name: string };
  setLoading(isLoading: boolean, name?: string): void;
};

export const useAppStore = create<AppState>()((set) => ({
  loading: { isLoading: false, name: '' },
  setLoading: (isLoading, name = '') => set({ loading: { isLoading, name } }),
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
