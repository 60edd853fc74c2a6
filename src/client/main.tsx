import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Toaster } from 'react-hot-toast';
import { RouterProvider } from 'react-router';
import { TOAST_DURATIONS_MS } from '#shared/constants';
import { createAppRouter } from './router.tsx';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false } },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={createAppRouter()} />
      {/* react-hot-toast keeps at most 20 toasts (its TOAST_LIMIT), as SPEC §9 asks. */}
      <Toaster
        position="top-center"
        toastOptions={{
          blank: { duration: TOAST_DURATIONS_MS.blank },
          error: { duration: TOAST_DURATIONS_MS.error },
          success: { duration: TOAST_DURATIONS_MS.success },
          loading: { duration: TOAST_DURATIONS_MS.loading },
        }}
      />
    </QueryClientProvider>
  </StrictMode>,
);
