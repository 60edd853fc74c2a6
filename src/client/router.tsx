import { createBrowserRouter, Outlet, redirect, type RouteObject } from 'react-router';
import { FOCUSED_SCREEN, LIVE_JOIN_SCREEN, LIVE_PLAYER_SCREEN } from './components/layout/focused-layout.tsx';
import { LoadingOverlay } from './components/ui/loading-overlay.tsx';
import { RouteErrorScreen } from './features/errors/route-error-screen.tsx';
import { lazyRoute } from './lib/lazy-route.ts';
import { shellLoadingText } from './components/ui/shell-texts.ts';
import { Spinner } from './components/ui/spinner.tsx';

function Root() {
  return (
    <>
      <Outlet />
      <LoadingOverlay />
    </>
  );
}

/** The first paint, before any catalog has loaded: its word comes from the page's <html lang>. */
function RouteSpinner() {
  return (
    <div role="status" className="flex min-h-screen items-center justify-center">
      <Spinner className="size-10" />
      <span className="sr-only">{shellLoadingText()}</span>
    </div>
  );
}

/** Every SPEC §2 route. Screens are lazy chunks, so the landing page loads little. */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Root />,
    errorElement: <RouteErrorScreen />,
    hydrateFallbackElement: <RouteSpinner />,
    children: [
      { index: true, lazy: lazyRoute(() => import('./features/landing/landing-page.tsx')) },
      // Issue 34: the short address a live game's projector shows (and its QR code, ?pin=), sent on
      // to the student's join page before any screen's code loads. That page's guard sends a
      // signed-out visitor to the student login, which comes back to it, and a teacher home.
      { path: 'live', loader: ({ request }) => redirect(`/dashboard/student/live${new URL(request.url).search}`) },
      {
        // Auth pages and dashboards share the query cache and the toaster (not the landing page).
        lazy: lazyRoute(() => import('./app-providers.tsx')),
        children: [
          {
            path: 'auth',
            lazy: lazyRoute(() => import('./features/auth/auth-layout.tsx')),
            children: [
              { index: true, lazy: lazyRoute(() => import('./features/auth/role-chooser-page.tsx')) },
              { path: 'teacher/login', lazy: lazyRoute(() => import('./features/auth/teacher-login-page.tsx')) },
              { path: 'teacher/register', lazy: lazyRoute(() => import('./features/auth/teacher-register-page.tsx')) },
              { path: 'student/login', lazy: lazyRoute(() => import('./features/auth/student-login-page.tsx')) },
              { path: 'student/register', lazy: lazyRoute(() => import('./features/auth/student-register-page.tsx')) },
            ],
          },
          {
            // The first run (issue 19): the school and its administrator.
            path: 'setup',
            lazy: lazyRoute(() => import('./features/auth/auth-layout.tsx')),
            children: [{ index: true, lazy: lazyRoute(() => import('./features/school/setup-page.tsx')) }],
          },
          {
            path: 'dashboard/teacher',
            lazy: lazyRoute(() => import('./features/teacher/teacher-layout.tsx')),
            children: [
              { index: true, lazy: lazyRoute(() => import('./features/teacher/teacher-home-page.tsx')) },
              { path: 'all-quiz', lazy: lazyRoute(() => import('./features/quizzes/teacher/all-quiz-page.tsx')) },
              { path: 'create-quiz', lazy: lazyRoute(() => import('./features/quizzes/teacher/create-quiz-page.tsx')) },
              {
                path: 'edit-quiz/:quizID',
                lazy: lazyRoute(() => import('./features/quizzes/teacher/edit-quiz-page.tsx')),
              },
              {
                path: 'preview/:quizTitle',
                lazy: lazyRoute(() => import('./features/quizzes/attempt/preview-page.tsx')),
              },
              {
                path: 'quiz-analytics/:quizID',
                lazy: lazyRoute(() => import('./features/quizzes/teacher/quiz-analytics-page.tsx')),
              },
              // Its own chunk (decision 046): the analytics page is near its budget.
              {
                path: 'quiz-analytics/:quizID/marking',
                lazy: lazyRoute(() => import('./features/quizzes/teacher/marking-page.tsx')),
              },
              // Issue 34 point 6: a finished live game's report, its own chunk and a link to share.
              {
                path: 'quiz-analytics/:quizID/live/:gameId',
                lazy: lazyRoute(() => import('./features/quizzes/teacher/live-game-report-page.tsx')),
              },
              // Not in SPEC §2: decision 063, the teacher's assignment screens (issue 33).
              {
                path: 'assignments',
                lazy: lazyRoute(() => import('./features/assignments/teacher-assignments-page.tsx')),
              },
              {
                path: 'assignments/new',
                lazy: lazyRoute(() => import('./features/assignments/teacher-assignment-editor-page.tsx')),
              },
              {
                path: 'assignments/:id',
                lazy: lazyRoute(() => import('./features/assignments/teacher-assignment-page.tsx')),
              },
              {
                path: 'assignments/:id/edit',
                lazy: lazyRoute(() => import('./features/assignments/teacher-assignment-editor-page.tsx')),
              },
              { path: 'students', lazy: lazyRoute(() => import('./features/students/students-page.tsx')) },
              { path: 'students/add', lazy: lazyRoute(() => import('./features/students/add-student-page.tsx')) },
              // Not in SPEC §2: decision 031, "Class screens".
              { path: 'classes', lazy: lazyRoute(() => import('./features/classes/classes-page.tsx')) },
              { path: 'classes/:id', lazy: lazyRoute(() => import('./features/classes/class-page.tsx')) },
              {
                path: 'classes/:id/gradebook',
                lazy: lazyRoute(() => import('./features/gradebook/gradebook-page.tsx')),
              },
              // Issue 35: the class board, its own chunk (Yjs comes with it only).
              { path: 'classes/:id/board', lazy: lazyRoute(() => import('./features/class-boards/board-page.tsx')) },
              {
                path: 'leaderboard',
                lazy: lazyRoute(() => import('./features/leaderboard/teacher-leaderboard-page.tsx')),
              },
              { path: 'resources', lazy: lazyRoute(() => import('./features/resources/teacher-resources-page.tsx')) },
              { path: 'canvas', lazy: lazyRoute(() => import('./features/canvas/canvas-page.tsx')) },
              { path: 'emeet', lazy: lazyRoute(() => import('./features/meetings/emeet-page.tsx')) },
              { path: 'meet/:roomID', lazy: lazyRoute(() => import('./features/meetings/meet-page.tsx')) },
              // Not in SPEC §2: issue 34, decision 066, the host's page of a live game: a projector's
              // whole screen, without the dashboard's header and menu.
              {
                path: 'live/:gameId',
                handle: FOCUSED_SCREEN,
                lazy: lazyRoute(() => import('./features/live-games/host-page.tsx')),
              },
              { path: 'account', lazy: lazyRoute(() => import('./features/account/account-page.tsx')) },
              { path: 'staff', lazy: lazyRoute(() => import('./features/school/staff-page.tsx')) },
            ],
          },
          {
            // Outside the student's dashboard and its study mode (decision 033).
            path: 'dashboard/student/choose-password',
            lazy: lazyRoute(() => import('./features/account/choose-password-page.tsx')),
          },
          {
            path: 'dashboard/student',
            lazy: lazyRoute(() => import('./features/student/student-layout.tsx')),
            children: [
              { index: true, lazy: lazyRoute(() => import('./features/student/student-home-page.tsx')) },
              { path: 'quiz', lazy: lazyRoute(() => import('./features/quizzes/student/quiz-list-page.tsx')) },
              { path: 'quiz/:id', lazy: lazyRoute(() => import('./features/quizzes/student/take-quiz-page.tsx')) },
              // Issue 34: a live game, joined by its PIN, played on the phone; both outside study
              // mode's gate (decision 070).
              {
                path: 'live',
                handle: LIVE_JOIN_SCREEN,
                lazy: lazyRoute(() => import('./features/live-games/join-live-page.tsx')),
              },
              // The phone's whole width for the game: no menu rail, no header.
              {
                path: 'live/:gameId',
                handle: LIVE_PLAYER_SCREEN,
                lazy: lazyRoute(() => import('./features/live-games/player-page.tsx')),
              },
              // Issue 33, decision 064: the student's assignments and their hand-ins.
              {
                path: 'assignments',
                lazy: lazyRoute(() => import('./features/assignments/student-assignments-page.tsx')),
              },
              {
                path: 'assignments/:id',
                lazy: lazyRoute(() => import('./features/assignments/student-assignment-page.tsx')),
              },
              // Not in SPEC §2: decision 031, "Class screens".
              { path: 'classes', lazy: lazyRoute(() => import('./features/classes/student-classes-page.tsx')) },
              // Issue 35: the class board, its own chunk (Yjs comes with it only).
              { path: 'classes/:id/board', lazy: lazyRoute(() => import('./features/class-boards/board-page.tsx')) },
              {
                path: 'leaderboard',
                lazy: lazyRoute(() => import('./features/leaderboard/student-leaderboard-page.tsx')),
              },
              { path: 'statistics', lazy: lazyRoute(() => import('./features/statistics/statistics-page.tsx')) },
              { path: 'grades', lazy: lazyRoute(() => import('./features/gradebook/student-grades-page.tsx')) },
              { path: 'resources', lazy: lazyRoute(() => import('./features/resources/student-resources-page.tsx')) },
              { path: 'canvas', lazy: lazyRoute(() => import('./features/canvas/canvas-page.tsx')) },
              { path: 'emeet', lazy: lazyRoute(() => import('./features/meetings/emeet-page.tsx')) },
              { path: 'meet/:roomID', lazy: lazyRoute(() => import('./features/meetings/meet-page.tsx')) },
              { path: 'account', lazy: lazyRoute(() => import('./features/account/account-page.tsx')) },
            ],
          },
        ],
      },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes, { basename: '/' });
