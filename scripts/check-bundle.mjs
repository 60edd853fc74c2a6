#!/usr/bin/env node
/**
 * Bundle budget check (`npm run check:bundle`, after `npm run build`). Byte sizes only, so the
 * result is the same on every machine: each JS chunk is gzipped with node:zlib at level 9.
 *
 * 1. Budgets per route. The routes are read from src/client/router.tsx with the TypeScript
 *    parser (a devDependency already): every route object's `path`/`index`, the `import()`
 *    inside its `lazy`, and its `children`. A screen is a route without children; what a
 *    browser downloads to show it is the entry chunk, the lazy chunks of the screen and of
 *    every layout above it, and all their static imports, transitively (read from
 *    dist/client/.vite/manifest.json, `imports`), each chunk counted once. Every import() in
 *    router.tsx must belong to a screen the walker understood; one it could not place (a
 *    spread, a helper, a new shape) fails the check, so a new route cannot slip past the
 *    budgets.
 *    A dynamic import() inside a screen counts in its budget too, with everything it loads:
 *    the code cannot tell whether that chunk loads as soon as the page renders (the Recharts
 *    pie of student statistics did: 93.9 kB that every student with an attempt downloaded,
 *    which this check did not see) or when the person does something. Only the chunks listed in
 *    LOADED_ON_USER_ACTION, each with the action it waits for, and in LOADED_ON_CONTENT (KaTeX:
 *    only when a text on screen holds mathematics), are left out of the budget and
 *    shown in the table's "on demand" column; a listed chunk that no screen imports fails the
 *    check, so the list cannot outlive what it excuses. Another screen's route module reached
 *    by an import() is navigation, not part of this screen.
 *    Budgets: every dashboard screen 200 kB (issue 8). The auth pages, which the issue leaves
 *    open, 165 kB (about 161 with tailwind-merge and the endpoint contract, decisions 027, 026;
 *    about 162 with the form layer, decision 029, 0.8 kB: raised so the forms need no second path;
 *    163.4 with the client's failure texts, 1.5 kB: decision 026's addendum). 167 with the first run
 *    and registration by invitation (issue 19, decision 030): the auth layout's loader that leads to
 *    /setup (+0.5 on every auth page, landing's fetch helper), the invitation check's endpoint and
 *    its page (teacher registration 163.7 -> 166.2) and /setup (165.4), an auth page too. Loaders,
 *    not useQuery (+3.2 kB), were chosen to keep the rise this small. 168 with the texts of each
 *    throttle limit (decision 026, last addendum: +0.4 on every auth page, teacher registration
 *    166.6 -> 167.0; checked against the texts' table, not the shared zod enum, which was +0.8).
 *    A route no rule covers fails. kB = 1,000 bytes, as Vite's build
 *    report prints them.
 *    Messages (decision 057): a screen counts the catalogs it loads, the shell's and one per route
 *    module it shows, each in its largest locale (scripts/vite-route-catalogs.ts builds them; the
 *    "messages" column, budget ROUTE_MESSAGES_BUDGET_KB). Every message id quoted in a chunk the
 *    screen downloads or may load on demand must be in those catalogs, in every locale: else the
 *    screen would show that text in English. A whole catalog (locales/x/messages.po) in the
 *    client build fails.
 *
 * 2. The landing page, 90 kB (issue 8), measured as what a visit to / downloads: GET / answers
 *    dist/client/landing.html, the page prerendered at build time (decision 014), not the app.
 *    The scripts and modulepreloads that HTML names are read from it and followed through the
 *    manifest like any route's chunks, so a script added to the page counts. The page must load
 *    its own entry chunk, have no inline script or style (the CSP would refuse them) and download
 *    nothing of React or the router: those are what it exists to avoid (a hello-world with
 *    react-dom 19 and the data router is 97.0 kB, over 90 before any page of ours).
 *    The app keeps its lazy landing route for client-side navigation to / (the brand link on
 *    every app page): that row, "/ (in the app)", is the entry chunk and the landing chunk, 113.4
 *    kB, budgeted at 120 kB so that the landing chunk cannot grow unnoticed.
 *
 * 3. Isolation. Meeting code (src/client/features/meetings/) and whiteboard code
 *    (src/client/features/canvas/) may only be in chunks that the screens of that folder
 *    reach: no other screen may download it, neither to show itself (its closure includes the
 *    entry chunk) nor on demand. Which source files went into a chunk is read from the chunk's
 *    source map (`sources`, resolved against the map's folder): it lists exactly the modules
 *    whose code was emitted into that chunk, whatever the chunk is named or however rolldown
 *    groups the modules, and needs no marker strings in the code. The build keeps source maps on
 *    (vite.config.ts); a chunk without a map fails the check, except rolldown's own runtime
 *    helper, which has no sources.
 *
 * 4. Compressed copies (decision 021). The server sends a file's .br or .gz, written by the build
 *    (scripts/vite-precompress.ts), to a browser that accepts it. Every file of dist/client that
 *    rule covers (text over 1 kB that gzip shrinks by 10 % or more) must have both, and every copy
 *    must decompress to its file's bytes: a stale or missing copy would be sent as the file. A
 *    copy without its file fails too. The rule is imported from the build plugin, so the check
 *    runs with tsx.
 *
 * Usage: node --import tsx scripts/check-bundle.mjs [--chunks]   (--chunks lists each screen's chunks)
 * Exit code 1 when a budget is exceeded, an isolation rule is broken, a compressed copy is
 * missing or wrong, or the input is not
 * understood.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import ts from 'typescript';
import { isCompressible, listServedFiles, PRECOMPRESSED_ENCODINGS, wantsSiblings } from './vite-precompress.ts';
import { messageIdsIn, readMessageIds, SHELL_CATALOG } from './vite-route-catalogs.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const clientRoot = path.join(projectRoot, 'src/client');
const routerFile = path.join(clientRoot, 'router.tsx');
const distRoot = path.join(projectRoot, 'dist/client');
const manifestFile = path.join(distRoot, '.vite/manifest.json');

const KB = 1000;
const LANDING_BUDGET_KB = 90;
const APP_LANDING_BUDGET_KB = 120;
const AUTH_BUDGET_KB = 169;
/* /setup had a budget of its own, one kB over the auth pages' (170), from the set-up code step
 * (decision 050) until issue 32's debt was paid (2026-12-06): it is an auth page again. */
/**
 * 200 kB, then 205 with the notification bell in every dashboard header (decision 059, issue 33
 * point 5) and the review fixes of issue 32 (codes typed left to right, titles, the sign-out's
 * language): measured on /dashboard/teacher, 199.3 -> 204.6 kB. The bell's panel loads on open
 * since decision 070 (2.2 kB back, LOADED_ON_USER_ACTION), which the live game's way through
 * study mode took 0.2 kB of.
 */
const DASHBOARD_BUDGET_KB = 205 + 1;
/* +1 (2026-12-03, evening): the school's time zone (decision 062) put its validation
 * (src/shared/time-zones.ts, Intl's zone list) into src/shared/school-setup.ts, whose chunk
 * (1.4 kB) every screen that reads the school's status loads: /dashboard/teacher/classes/:id
 * 229.8 -> 230.5. The way back: the set-up's body schema (the only one that validates a zone) in
 * a module of its own, so that the status schema stops carrying it. */
/**
 * The quiz editor's two screens, 202 kB until the shared quiz model is slimmed: matching items,
 * descriptions and essays (decisions 045, 046) added 1.1 kB of schemas and rules that the editor
 * validates with, after the endpoint docs (−1 kB, scripts/vite-strip-endpoint-docs.ts) and the
 * demo choice's chunks (−1.5 kB) were taken out. An exception with a way back, not a new rule:
 * the model's English messages become codes with issue 32's translation layer.
 */
const QUIZ_EDITOR_BUDGET_KB = 202 + 7.5;
/* +7.5 (2026-12-03): the bell and review fixes as on every dashboard (+5.3), and the question
 * import's problems worded on the client by code (issue 32 review, 32 codes): 223.9 -> 231.5.
 * +0.5 (2026-12-04): edit-quiz 235.2 -> 235.8, from words every form or screen loads: two
 * assignment field codes (NO_CLASS_CHOSEN, SCRIPT_IN_TEXT) in the field texts, the live game's
 * NO_LIVE_QUESTIONS failure, the demo accounts' check in the profile. Then +0.3 (2026-12-05): the
 * live game's full-window screens. Both were debts with issue 32's, paid back by the shared
 * schemas on zod/mini (decision 073): 202 + 7.5 again, edit-quiz 211.6 of 213.1 (2026-12-06). */
/**
 * The router's table in the entry chunk: Vite's preload list of each lazy route's chunks. Issue
 * 33's eight screens (assignments for both roles, the gradebook, a student's grades) added
 * 2.3 kB gzipped to every screen of the app (the entry, 75.8 -> 78.1 kB), with no code of theirs.
 * Grows with the number of routes, not with any one screen: the next room for it is the router
 * loading each role's part of the table with its layout.
 */
const ROUTE_TABLE_KB = 2.5 + 0.2 + 0.6;
/* +0.2 (2026-12-04): the live game host's route (issue 34), 78.2 -> 78.4 kB on every screen. */
/* +0.6 (2026-12-04): the live game player's three routes (/live, the PIN page, the game) and the
 * game report's, 78.4 -> 79.0 kB on every screen. */
/* SHARED_CHUNK_SPLIT_KB (1 kB, 2026-12-05 to 2026-12-06): the live game's split of the shared quiz
 * schemas into two chunks, whose second chunk's overhead every screen loading both paid. Its way
 * back was the schemas on zod/mini (decision 073), which left room for it. */
/**
 * The quiz analytics page's finished live games (issue 34 point 6): the section's button and
 * words on the page (the list and the report load on demand), and the "Play live" link, +0.6 kB
 * beyond the split above: 234.2 measured. Debt with the dashboards' (the bell's panel on open).
 */
const QUIZ_ANALYTICS_LIVE_KB = 0.8 + 0.8;
/**
 * Issue 35's first paint (decision 069's last addendum): the entry chunk starts a class board's
 * download as the page's code starts (`board-prefetch.ts`), so every screen of the dashboards
 * carries its 0.3 kB (131.2 -> 131.5 kB entry); the quiz analytics page had no room for it.
 */
const BOARD_FIRST_DOWNLOAD_KB = 0.3;
/**
 * Issue 35's first paint from the class page (decision 069's last addendum, 2026-12-06): the entry
 * starts a board's download as the navigation to it starts (`followNavigations`) and lets a page
 * load a screen's code before its link is followed (`lib/route-preload.ts`), 131.6 -> 131.85 kB
 * entry, on every screen, the app's landing route included.
 */
const BOARD_OPEN_FROM_PAGE_KB = 0.3;
/* +0.8 (2026-12-05): the page's loading and failure states (components/query-page.tsx) and its
 * per-question rows (per-question-parts.tsx) shared with the live game's report instead of written
 * twice: code that compressed with its neighbours inline compresses less in shared chunks, 234.4 ->
 * 235.3 with the full-window screens' +0.3 above. */
const QUIZ_ANALYTICS_ROUTE = '/dashboard/teacher/quiz-analytics/:quizID';
/**
 * The host's page of a live game (issue 34 point 2), 3 kB over the dashboards': the game's protocol
 * module (src/shared/live-games.ts), which its session imports for a few constants (close codes,
 * the socket's path, the limits), brings zod and the quiz schemas (the fields chunk, 29.6 kB
 * gzipped), and the page draws its join QR code (uqr, about 5 kB). Measured 234.5 of 235.2. The
 * way back: the protocol's constants in a module of their own, without zod.
 */
const LIVE_HOST_BUDGET_KB = DASHBOARD_BUDGET_KB + 3;
const LIVE_HOST_ROUTE = '/dashboard/teacher/live/:gameId';
/**
 * The class board (issue 35, decision 069), under both dashboards: the board's document is a Yjs
 * CRDT synced with y-protocols (yjs, lib0, y-protocols: about 30 kB gzipped of its 39.6 kB chunk),
 * which no other screen loads (ISOLATED_FEATURES below). Measured 260.7 (teacher) and 263.9 kB
 * (student: study mode's shell besides). +0.5 (2026-12-05): a first open's download of the board,
 * the unsent changes kept at once, the large undos' pieces (their code on demand): 265.4 measured.
 * +0.5: the pen's and the connection's polite announcements, the cursor names' contrast, each
 * refusal's own words, a clear that keeps its page: 266.1 measured. +0.5: each stroke its own
 * path with its points thinned to the scale (20,000 strokes rasterised in 0.3 s, not 2.3 s), the
 * socket opened during the download: 266.3 measured. +0.7 (issue 35's first paint, decision 069's
 * last addendum; with BOARD_FIRST_DOWNLOAD_KB in the entry): taking the download started with the
 * page, its framing, downloads applied without Yjs encoding them back, the copy written from the
 * download: 267.6 measured. Then zod/mini and no tailwind-merge took both down by ~24 kB, and the
 * route's total came from the other budgets. +0.8 (issue 35's leftovers, 2026-12-06): the toolbar's
 * keyboard pattern (components/ui/toolbar.tsx, a 0.65 kB chunk shared with the markdown field) and
 * the pen panel's marks of who is on the board: the student's route 244.0 measured.
 */
const CLASS_BOARD_BUDGET_KB = DASHBOARD_BUDGET_KB + 34.5;
const CLASS_BOARD_ROUTES = new Set(['/dashboard/teacher/classes/:id/board', '/dashboard/student/classes/:id/board']);
/**
 * /live (issue 34): the short address a live game's projector shows, a redirect to the student's
 * PIN page. A loader in the route table since 2026-12-06 (it was a screen under the providers,
 * which downloaded them and their catalog first): the entry and the shell's catalog, as the app's
 * landing route, 118.3 kB measured.
 */
const LIVE_SHORTCUT_BUDGET_KB = APP_LANDING_BUDGET_KB;
const QUIZ_EDITOR_ROUTES = new Set(['/dashboard/teacher/create-quiz', '/dashboard/teacher/edit-quiz/:quizID']);

/*
 * The translation layer (issue 32, decision 054) has no allowance of its own any more: from
 * 2026-12-03 to 2026-12-06 `TRANSLATION_LAYER_KB` (6.5, then 9.5, 22.5 and 23.5 kB) was added to
 * the auth, set-up and dashboard budgets while every screen downloaded Lingui, its catalog and the
 * client's words for the server's codes beside the shared schemas' English. It went back to 0 as
 * the shared schemas moved to zod/mini (decision 073, 14.7–15.0 kB on every screen that
 * validates), the field codes' meanings to the server's API document (1.6 kB) and tailwind-merge
 * out of the bundle (decision 027's addendum, 8.2–8.4 kB): /auth/teacher/register 195.3 -> 170.4,
 * create-quiz 235.9 -> 211.3. Each screen's catalog is counted in its bytes (the "messages"
 * column) and budgeted on its own (ROUTE_MESSAGES_BUDGET_KB).
 */
/**
 * The app's own landing route (`/` in the app, not the prerendered page): no form, no zod, so
 * nothing of decision 073's saving. What the layer costs it, measured by chunk (2026-12-06):
 * Lingui's core (2.2 kB), the route's and the shell's catalogs (2.7, the largest locale's), the
 * landing's language switcher (0.8), the Intl formatting (1.1), lib/i18n.ts (0.5) and Lingui's
 * React bindings in the entry (about 1): 8.3 kB. It is never a first load: GET / answers the
 * prerendered page, and the app comes to this route from a screen that has loaded the layer.
 */
const LANDING_TRANSLATION_KB = 8.3;
/**
 * The catalogs one screen downloads (decision 057), the largest locale's, shell's and routes':
 * inside each screen's budget, and budgeted on their own so that a screen whose messages grow (a
 * route that starts importing a page of texts it does not show) is seen.
 */
// 12, then 13.5: the editors' import problems (32 codes' words) took edit-quiz to 13.3 kB; then
// 14: the answer rules' codes (NOT_ANSWERABLE, INVALID_CHOICE…) and four field codes worded, 13.5.
// 14.5: the shared schemas' sentences left the code (issue 32 point 3; the quiz editor's code 1.4 kB
// smaller) and their English became the catalogs' field words for every locale: edit-quiz 14.2.
const ROUTE_MESSAGES_BUDGET_KB = 14.5;

/**
 * Lazy chunks that load only after the person does something, so that a screen's budget is
 * what it costs to show the screen: `module` is the end of the import()ed module's manifest key
 * (its path from the Vite root, src/client). Nothing that loads while the page renders belongs here: a chart, a
 * widget below the fold, anything behind a Suspense that mounts on its own is budgeted.
 */
const LOADED_ON_USER_ACTION = [
  // Empty since issue 18: uploaded videos play in a native <video>, react-player is gone
  // (its 595.2 kB chunk waited for Play on the resources pages). Add { module, waitsFor }.
  { module: 'features/roster-import/roster-import-steps.tsx', waitsFor: 'Import students (CSV) on a class page' },
  // Its large undos' pieces (board-session.ts): loaded when a page is cleared or deleted, or strokes erased.
  { module: 'shared/board-pieces.ts', waitsFor: 'Clear page, Delete page or Erase on a class board' },
  { module: 'features/roster-import/roster-csv-file.ts', waitsFor: 'Export roster (CSV) on a class page' },
  { module: 'features/classes/move-student-dialog.tsx', waitsFor: 'Move to class on a class page' },
  { module: 'features/classes/add-class-student-dialog.tsx', waitsFor: 'Add student on a class page' },
  {
    module: 'features/quizzes/teacher/background-dialog.tsx',
    waitsFor: 'Select quiz background in the quiz editor',
  },
  // Decision 046: the editors were over their budget once matching and essays came in.
  { module: 'features/quizzes/teacher/quiz-image-upload.ts', waitsFor: 'Choosing an image file in the quiz editor' },
  {
    module: 'features/quizzes/teacher/matching-fields.tsx',
    waitsFor: 'Matching chosen as a question type in the quiz editor (or editing a quiz that has one)',
  },
  {
    module: 'features/quizzes/teacher/accommodation-form.tsx',
    waitsFor: 'Add accommodation or Change on a quiz’s analytics page',
  },
  {
    module: 'features/quizzes/teacher/import-questions-dialog.tsx',
    waitsFor: 'Import questions in the quiz editor (the GIFT and Aiken readers)',
  },
  {
    module: 'features/quizzes/teacher/quiz-lifecycle-dialogs.tsx',
    waitsFor: 'Duplicate or Delete on a quiz’s analytics page (opened over the edit screen)',
  },
  // Decision 063: the assignment screens.
  {
    module: 'features/assignments/teacher-attachment-picker.tsx',
    waitsFor: 'Attach from library in the assignment editor',
  },
  {
    module: 'features/assignments/teacher-hand-in-panel.tsx',
    waitsFor: 'A student chosen in an assignment’s grading list (or an address that names one)',
  },
  {
    module: 'features/assignments/teacher-assignment-dialogs.tsx',
    waitsFor: 'Duplicate or Delete on an assignment’s page',
  },
  { module: 'features/quizzes/attempt/confetti.ts', waitsFor: 'Submitting a quiz whose result is worth celebrating' },
  // Decision 070: the dashboards were at their budget (student meeting room 233.7 kB) when the
  // live game's way through study mode came; the bell's panel was decision 059's room to find.
  { module: 'features/notifications/notification-panel.tsx', waitsFor: 'Opening the notification bell' },
  // Issue 32: the phone's cards took the analytics screen over its budget (227.8 kB).
  { module: 'features/quizzes/teacher/analytics-csv.ts', waitsFor: 'Download CSV on a quiz’s analytics page' },
  // Issue 34 point 6: the analytics screen was at its budget (231.8 kB) when the live games came.
  {
    module: 'features/quizzes/teacher/live-games-section.tsx',
    waitsFor: 'Show finished live games on a quiz’s analytics page (or an address with ?live=1)',
  },
  {
    module: 'features/students/student-dialogs.tsx',
    waitsFor: 'Edit or Reset password on a roster or the students screen',
  },
  // Issue 34 point 2: the class picker and the form layer stay off the quiz list until asked.
  {
    module: 'features/live-games/play-live-dialog.tsx',
    waitsFor: 'Play live on a quiz card or on a quiz’s analytics page',
  },
];

/**
 * Lazy chunks that load only when the content on screen needs them: left out of the budgets like
 * LOADED_ON_USER_ACTION (a page of quizzes without mathematics never downloads them) and shown in
 * the "on demand" column. KaTeX (decision 036): MathText imports it when a text holds TeX.
 */
const LOADED_ON_CONTENT = [
  { module: 'components/katex-render.ts', waitsFor: 'a question or option text with \\( \\) or $$ $$ math' },
  // Decision 060: the assignment screens (decision 063) are the first to show Markdown.
  {
    module: 'components/markdown-render.tsx',
    waitsFor: 'A text in Markdown on screen (assignment instructions, decision 060)',
  },
];

/**
 * Feature folders whose code may only be downloaded by their own screens; `sources`, when given,
 * says which source files are the feature's (a library), and `folder` which route modules own it.
 */
const ISOLATED_FEATURES = [
  { label: 'meetings', folder: 'features/meetings/' },
  { label: 'whiteboard', folder: 'features/canvas/' },
  // Issue 34 point 2: the QR code of a live game's join address, drawn by the host's page only.
  { label: 'QR code library (uqr)', folder: 'features/live-games/host-page.tsx', sources: /(^|\/)node_modules\/uqr\// },
  // Issue 35: the class board's CRDT, on the board's screens only.
  {
    label: 'class board CRDT (yjs)',
    folder: 'features/class-boards/board-page.tsx',
    sources: /(^|\/)node_modules\/(yjs|y-protocols|lib0)\//,
  },
];
/** Whether a chunk's source file is part of an isolated feature. */
const isPartOf = (feature, source) =>
  feature.sources ? feature.sources.test(source) : source.startsWith(feature.folder);

const showChunks = process.argv.includes('--chunks');
const problems = [];

function fail(message) {
  console.error(`check-bundle: ${message}`);
  process.exit(1);
}

/** The budget of a screen, or null when no rule covers its path. */
function budgetFor(routePath) {
  // The app's landing route is translated too (issue 32), at its own measured cost. The
  // prerendered page, which / serves, downloads none of it (LANDING_BUDGET_KB, unchanged).
  if (routePath === '/')
    return APP_LANDING_BUDGET_KB + LANDING_TRANSLATION_KB + ROUTE_TABLE_KB + BOARD_OPEN_FROM_PAGE_KB;
  // The first run's /setup is an auth page: the same form, the same layout.
  if (routePath === '/setup') return AUTH_BUDGET_KB + ROUTE_TABLE_KB;
  if (routePath === '/auth' || routePath.startsWith('/auth/')) return AUTH_BUDGET_KB + ROUTE_TABLE_KB;
  if (routePath === LIVE_HOST_ROUTE) return LIVE_HOST_BUDGET_KB + ROUTE_TABLE_KB;
  if (routePath === '/live') return LIVE_SHORTCUT_BUDGET_KB + ROUTE_TABLE_KB;
  const shared = ROUTE_TABLE_KB + BOARD_FIRST_DOWNLOAD_KB + BOARD_OPEN_FROM_PAGE_KB;
  if (QUIZ_EDITOR_ROUTES.has(routePath)) return QUIZ_EDITOR_BUDGET_KB + shared;
  if (CLASS_BOARD_ROUTES.has(routePath)) return CLASS_BOARD_BUDGET_KB + shared;
  if (routePath === QUIZ_ANALYTICS_ROUTE) return DASHBOARD_BUDGET_KB + shared + QUIZ_ANALYTICS_LIVE_KB;
  if (routePath.startsWith('/dashboard/')) return DASHBOARD_BUDGET_KB + shared;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Routes from router.tsx

function propertyOf(object, name) {
  return object.properties.find((property) => ts.isPropertyAssignment(property) && property.name.getText() === name)
    ?.initializer;
}

/** The specifiers of the import() calls under a node. */
function importCallsUnder(node) {
  const specifiers = [];
  const visit = (child) => {
    if (ts.isCallExpression(child) && child.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = child.arguments;
      if (!argument || !ts.isStringLiteralLike(argument)) {
        fail(`router.tsx:${lineOf(child)}: import() with a computed specifier cannot be checked`);
      }
      specifiers.push(argument.text);
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
  return specifiers;
}

let sourceFile;
const lineOf = (node) => sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1;

function joinPath(parent, segment) {
  if (segment.startsWith('/')) return segment;
  return `${parent.replace(/\/$/, '')}/${segment}`;
}

/** Walks a `RouteObject[]` literal: one screen per route without children. */
function collectScreens(array, parentPath, parentModules, screens) {
  for (const element of array.elements) {
    if (!ts.isObjectLiteralExpression(element)) {
      fail(`router.tsx:${lineOf(element)}: a route that is not an object literal cannot be checked`);
    }
    for (const property of element.properties) {
      if (!ts.isPropertyAssignment(property)) {
        fail(`router.tsx:${lineOf(property)}: only plain \`key: value\` route properties can be checked`);
      }
    }
    const pathNode = propertyOf(element, 'path');
    if (pathNode && !ts.isStringLiteralLike(pathNode)) fail(`router.tsx:${lineOf(pathNode)}: path is not a string`);
    const routePath = pathNode ? joinPath(parentPath, pathNode.text) : parentPath;
    const lazyNode = propertyOf(element, 'lazy');
    const lazyModules = lazyNode ? importCallsUnder(lazyNode) : [];
    if (lazyNode && lazyModules.length === 0) {
      fail(`router.tsx:${lineOf(lazyNode)}: a lazy route without an import() cannot be checked`);
    }
    const modules = [...parentModules, ...lazyModules];
    const children = propertyOf(element, 'children');
    if (children) {
      if (!ts.isArrayLiteralExpression(children)) fail(`router.tsx:${lineOf(children)}: children is not an array`);
      collectScreens(children, routePath, modules, screens);
    } else {
      screens.push({ path: routePath || '/', modules });
    }
  }
}

function readScreens() {
  sourceFile = ts.createSourceFile(routerFile, readFileSync(routerFile, 'utf8'), ts.ScriptTarget.Latest, true);
  let routesArray;
  sourceFile.forEachChild((statement) => {
    if (!ts.isVariableStatement(statement)) return;
    for (const declaration of statement.declarationList.declarations) {
      if (declaration.name.getText() === 'routes' && declaration.initializer) routesArray = declaration.initializer;
    }
  });
  if (!routesArray || !ts.isArrayLiteralExpression(routesArray)) fail('router.tsx: no `routes` array literal found');
  const screens = [];
  collectScreens(routesArray, '', [], screens);

  // Every import() of the file must be part of some screen.
  const covered = new Set(screens.flatMap((screen) => screen.modules));
  for (const specifier of importCallsUnder(sourceFile)) {
    if (!covered.has(specifier)) {
      problems.push(`router.tsx imports ${specifier} lazily, but no route the checker understood uses it`);
    }
  }
  return screens;
}

// ---------------------------------------------------------------------------------------------
// Chunks from the manifest

if (!existsSync(manifestFile)) fail(`${path.relative(projectRoot, manifestFile)} is missing: run \`npm run build\``);
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));

// Two pages: the app's shell (index.html) and the prerendered landing page (landing.html).
const APP_ENTRY = 'index.html';
const LANDING_ENTRY = 'landing.html';
const entryKeys = Object.keys(manifest).filter((key) => manifest[key].isEntry);
if (entryKeys.sort().join() !== [APP_ENTRY, LANDING_ENTRY].join()) {
  fail(`expected the entries ${APP_ENTRY} and ${LANDING_ENTRY} in the manifest, found ${entryKeys.join(', ')}`);
}
const entryKey = APP_ENTRY;

/** The manifest key of a router.tsx import() specifier (keys are relative to the Vite root). */
function manifestKeyOf(specifier) {
  const key = path
    .relative(clientRoot, path.resolve(path.dirname(routerFile), specifier))
    .split(path.sep)
    .join('/');
  const chunk = manifest[key];
  if (!chunk) fail(`${specifier} (router.tsx) has no chunk of its own in the manifest`);
  if (!chunk.isDynamicEntry) fail(`${specifier} (router.tsx) is not a lazy chunk: something imports it statically`);
  return key;
}

/** The manifest keys of the given chunks and all their static imports. */
function staticClosure(keys) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    if (!manifest[key]) fail(`manifest entry ${key} is missing`);
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return seen;
}

const gzipSizes = new Map();
function gzipSize(key) {
  const file = manifest[key].file;
  if (!gzipSizes.has(file)) {
    gzipSizes.set(file, gzipSync(readFileSync(path.join(distRoot, file)), { level: 9 }).length);
  }
  return gzipSizes.get(file);
}

const sourcesByFile = new Map();
/** The source files (relative to src/client, or paths outside it) emitted into a chunk. */
function sourcesOf(key) {
  const chunk = manifest[key];
  if (catalogOf(key)) return []; // compiled messages, no module's code
  if (!sourcesByFile.has(chunk.file)) {
    const chunkFile = path.join(distRoot, chunk.file);
    let sources = [];
    if (existsSync(`${chunkFile}.map`)) {
      const map = JSON.parse(readFileSync(`${chunkFile}.map`, 'utf8'));
      const base = path.resolve(path.dirname(chunkFile), map.sourceRoot ?? '');
      sources = map.sources.map((source) =>
        path.relative(clientRoot, path.resolve(base, source)).split(path.sep).join('/'),
      );
    } else if (!/^rolldown-runtime\b/.test(chunk.name ?? '')) {
      fail(`${chunk.file} has no source map; the isolation check needs build.sourcemap in vite.config.ts`);
    }
    sourcesByFile.set(chunk.file, sources);
  }
  return sourcesByFile.get(chunk.file);
}

// ---------------------------------------------------------------------------------------------
// Report

const screens = readScreens();
const routeModuleKeys = new Set(screens.flatMap((screen) => screen.modules.map(manifestKeyOf)));
/**
 * The compiled translation catalogs (decision 057): one chunk per locale for each route module of
 * router.tsx and for the shell, which the build names `route-catalog/<locale>/<route module>`
 * (scripts/vite-route-catalogs.ts). A visit downloads its locale's: each screen counts, for the
 * shell and each of its route modules, the largest (Arabic's), and not through the closure (every
 * catalog of every route is an import() of the entry chunk, router.tsx's).
 */
const CATALOG_KEY = /(?:^|\/)route-catalog\/([^/]+)\/(.+)$/;
const catalogOf = (key) => {
  const match = CATALOG_KEY.exec(key);
  return match ? { locale: match[1], route: match[2] } : null;
};
/** Route module key (or 'shell') -> locale -> the catalog's manifest key. */
const catalogsByRoute = new Map();
for (const key of Object.keys(manifest)) {
  const catalog = catalogOf(key);
  if (!catalog) continue;
  if (!catalogsByRoute.has(catalog.route)) catalogsByRoute.set(catalog.route, new Map());
  catalogsByRoute.get(catalog.route).set(catalog.locale, key);
}
// The whole catalog of a locale in the client build: what decision 057 took out of every screen.
for (const key of Object.keys(manifest).filter((key) => /(^|\/)locales\/[^/]+\/messages\.po$/.test(key))) {
  problems.push(`${key} (a whole catalog) is a chunk of the client build: screens load their route's catalog`);
}
/** The largest of a route's catalogs, the one its budget counts. */
function largestCatalogOf(route) {
  const byLocale = catalogsByRoute.get(route);
  if (!byLocale) fail(`no catalog for ${route} in the manifest (scripts/vite-route-catalogs.ts)`);
  return [...byLocale.values()].reduce((largest, key) => (gzipSize(key) > gzipSize(largest) ? key : largest));
}
const formatKb = (bytes) => (bytes / KB).toFixed(1);
const sumGzip = (keys) => [...keys].reduce((sum, key) => sum + gzipSize(key), 0);
const rows = [];
/** Isolation failures: "<what> in <chunk>, reached from" -> screens. */
const leaks = new Map();

// By the end of the key: node_modules may sit higher up (a workspace, a symlinked install).
const LOADED_ON_DEMAND = [...LOADED_ON_USER_ACTION, ...LOADED_ON_CONTENT];
const userActionRule = (key) => LOADED_ON_DEMAND.find((rule) => key === rule.module || key.endsWith(`/${rule.module}`));
const usedUserActionRules = new Set();

/**
 * What showing a screen downloads: the static closure of the entry and route chunks, plus
 * every chunk its import()s reach (and theirs), except other screens' route modules and the
 * chunks that wait for a user action. Returns those chunks, the ones among them that came
 * through an import(), and the user-action chunks reached (import()ed module keys).
 */
function shownClosure(routeKeys) {
  const chunks = staticClosure(routeKeys);
  const lazy = new Set();
  const userAction = new Set();
  const pending = [...chunks].flatMap((key) => manifest[key].dynamicImports ?? []);
  while (pending.length > 0) {
    const key = pending.pop();
    if (chunks.has(key) || routeModuleKeys.has(key) || catalogOf(key)) continue;
    const rule = userActionRule(key);
    if (rule) {
      usedUserActionRules.add(rule);
      userAction.add(key);
      continue;
    }
    for (const chunk of staticClosure([key])) {
      if (chunks.has(chunk)) continue;
      chunks.add(chunk);
      lazy.add(chunk);
      pending.push(...(manifest[chunk].dynamicImports ?? []));
    }
  }
  return { chunks, lazy, userAction };
}

/**
 * Chunks a screen fetches after a user action (none today), transitively, that are not
 * already loaded: reported, not budgeted. Other screens' route modules are left out, they
 * belong to navigation.
 */
function onDemandClosure(shownKeys, userActionKeys) {
  const loaded = new Set(shownKeys);
  const pending = [...userActionKeys];
  while (pending.length > 0) {
    const key = pending.pop();
    if (loaded.has(key) || routeModuleKeys.has(key) || catalogOf(key)) continue;
    for (const chunk of staticClosure([key])) {
      if (loaded.has(chunk)) continue;
      loaded.add(chunk);
      pending.push(...(manifest[chunk].dynamicImports ?? []));
    }
  }
  return [...loaded].filter((key) => !shownKeys.has(key));
}

/**
 * Budgets and isolation for one page: `chunks` is what showing it downloads (`lazy`: those that
 * came through an import()), `onDemand` what it may fetch after a user action, `ownKeys` the
 * route modules that make it one of an isolated feature's own screens.
 */
function checkPage({ label, chunks, lazy, onDemand, budget, ownKeys, catalogs = [] }) {
  const catalogBytes = sumGzip(catalogs);
  const bytes = sumGzip(chunks) + catalogBytes;
  if (catalogBytes > ROUTE_MESSAGES_BUDGET_KB * KB) {
    problems.push(
      `route ${label}: ${formatKb(catalogBytes)} kB gzipped messages, budget ${ROUTE_MESSAGES_BUDGET_KB} kB`,
    );
  }
  const onDemandBytes = sumGzip(onDemand);
  if (budget === null) problems.push(`route ${label} has no budget rule in scripts/check-bundle.mjs`);
  const isOver = budget !== null && bytes > budget * KB;
  if (isOver) problems.push(`route ${label}: ${formatKb(bytes)} kB gzipped JS, budget ${budget} kB`);
  rows.push([
    label,
    String(chunks.size),
    formatKb(bytes),
    budget === null ? '-' : String(Math.round(budget * 10) / 10),
    isOver ? 'OVER' : 'OK',
    catalogs.length > 0 ? formatKb(catalogBytes) : '',
    onDemandBytes > 0 ? `+${formatKb(onDemandBytes)}` : '',
  ]);

  if (showChunks) {
    const list = [...chunks, ...catalogs].sort((a, b) => gzipSize(b) - gzipSize(a));
    for (const key of list)
      console.log(
        `${label.padEnd(42)} ${formatKb(gzipSize(key)).padStart(7)}  ${manifest[key].file}${
          lazy.has(key) ? '  (import() in the screen, loads on render)' : ''
        }`,
      );
  }

  for (const feature of ISOLATED_FEATURES) {
    const { label: featureLabel, folder } = feature;
    const isOwnScreen = ownKeys.some((key) => key.startsWith(folder));
    if (isOwnScreen) {
      feature.ownScreens = (feature.ownScreens ?? 0) + 1;
      if ([...chunks, ...onDemand].some((key) => sourcesOf(key).some((source) => isPartOf(feature, source)))) {
        feature.isFound = true;
      }
      continue;
    }
    for (const key of [...chunks, ...onDemand]) {
      const leaked = sourcesOf(key).filter((source) => isPartOf(feature, source));
      if (leaked.length === 0) continue;
      const where = key === entryKey ? 'the entry chunk' : manifest[key].file;
      const message = `${featureLabel} code (${leaked.join(', ')}) in ${where}, reached from`;
      if (!leaks.has(message)) leaks.set(message, []);
      leaks.get(message).push(chunks.has(key) ? label : `${label} (on demand)`);
    }
  }
  return bytes;
}

// The landing page as / serves it: the scripts landing.html loads (and what they import), not the
// app. Read from the HTML itself, so a script added to the page by hand counts too.
const landingHtmlFile = path.join(distRoot, LANDING_ENTRY);
if (!existsSync(landingHtmlFile)) fail(`dist/client/${LANDING_ENTRY} is missing: run \`npm run build\``);
const landingHtml = readFileSync(landingHtmlFile, 'utf8');
const keyByFile = new Map(Object.entries(manifest).map(([key, chunk]) => [`/${chunk.file}`, key]));
const landingScriptKeys = [];
for (const [tag] of landingHtml.matchAll(/<script\b[^>]*>|<link\b[^>]*\brel="modulepreload"[^>]*>/g)) {
  const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
  // The CSP (script-src 'self', decision 018) refuses inline script: it would break the page.
  if (!url) problems.push(`${LANDING_ENTRY} has an inline script, which the Content-Security-Policy refuses`);
  else if (!keyByFile.has(url)) problems.push(`${LANDING_ENTRY} loads ${url}, which is not a chunk of the build`);
  else landingScriptKeys.push(keyByFile.get(url));
}
if (/<style\b|\sstyle="/.test(landingHtml)) {
  problems.push(`${LANDING_ENTRY} has inline style, which the Content-Security-Policy refuses`);
}
if (!landingScriptKeys.includes(LANDING_ENTRY)) {
  problems.push(`${LANDING_ENTRY} does not load its own entry chunk (${manifest[LANDING_ENTRY].file})`);
}
const landing = shownClosure(landingScriptKeys);
const landingBytes = checkPage({
  label: '/ (prerendered)',
  chunks: landing.chunks,
  lazy: landing.lazy,
  onDemand: onDemandClosure(landing.chunks, landing.userAction),
  budget: LANDING_BUDGET_KB,
  ownKeys: [],
});
// The point of the page: React and the router are the app's (97 kB before any page of ours).
const REACT_PACKAGES = /(^|\/)node_modules\/(react|react-dom|react-router|scheduler)\//;
const landingReact = [...landing.chunks].flatMap((key) =>
  sourcesOf(key).filter((source) => REACT_PACKAGES.test(source)),
);
if (landingReact.length > 0) {
  problems.push(`the prerendered landing page downloads React or the router: ${landingReact.slice(0, 3).join(', ')}`);
}

// Every message a screen's code can show must be in the catalogs it loads, in every locale: else
// the screen would show its English source. Read from the built chunks, not from the plugin's
// module graph: every catalog id quoted in a chunk the screen downloads or may load on demand.
const messageIds = await readMessageIds();
const catalogMessages = new Map();
async function messagesOf(key) {
  if (!catalogMessages.has(key)) {
    const { messages } = await import(pathToFileURL(path.join(distRoot, manifest[key].file)).href);
    catalogMessages.set(key, new Set(Object.keys(messages)));
  }
  return catalogMessages.get(key);
}
const idsByChunk = new Map();
function idsOfChunk(key) {
  if (!idsByChunk.has(key)) {
    idsByChunk.set(key, messageIdsIn(readFileSync(path.join(distRoot, manifest[key].file), 'utf8'), messageIds));
  }
  return idsByChunk.get(key);
}
let checkedMessages = 0;
let largestCatalogs = { label: '', bytes: 0 };

for (const screen of screens) {
  const lazyKeys = [...new Set(screen.modules)].map(manifestKeyOf);
  const { chunks, lazy, userAction } = shownClosure([entryKey, ...lazyKeys]);
  const catalogRoutes = [SHELL_CATALOG, ...lazyKeys];
  const catalogs = catalogRoutes.map(largestCatalogOf);
  const onDemand = onDemandClosure(chunks, userAction);
  const label = screen.path === '/' ? '/ (in the app)' : screen.path;
  checkPage({
    // The SPA's own landing route: reached by client-side navigation from an app page (the brand link).
    label,
    chunks,
    lazy,
    onDemand,
    budget: budgetFor(screen.path),
    ownKeys: lazyKeys,
    catalogs,
  });
  if (sumGzip(catalogs) > largestCatalogs.bytes) largestCatalogs = { label, bytes: sumGzip(catalogs) };

  const used = new Set([...chunks, ...onDemand].flatMap((key) => [...idsOfChunk(key)]));
  for (const locale of catalogsByRoute.get(SHELL_CATALOG).keys()) {
    const loaded = new Set();
    for (const route of catalogRoutes) {
      const key = catalogsByRoute.get(route).get(locale);
      if (!key) problems.push(`${route} has no catalog in ${locale}`);
      else for (const id of await messagesOf(key)) loaded.add(id);
    }
    const missing = [...used].filter((id) => !loaded.has(id));
    if (missing.length > 0) {
      problems.push(
        `${label} in ${locale}: ${missing.length} messages its code shows are in none of its catalogs (${missing.slice(0, 5).join(', ')})`,
      );
    }
  }
  checkedMessages += used.size;
}

const header = ['route', 'chunks', 'gz kB', 'budget', '', 'messages', 'on demand'];
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
const line = (cells) =>
  cells
    .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
    .join('  ')
    .trimEnd();
console.log(line(header));
for (const row of rows) console.log(line(row));

for (const [message, screenPaths] of leaks) problems.push(`${message} ${screenPaths.join(', ')}`);
// A rule that matches nothing passes for the wrong reason: a renamed folder, unreadable source maps.
for (const { label, folder, ownScreens, isFound } of ISOLATED_FEATURES) {
  if (!ownScreens) problems.push(`no route of router.tsx loads src/client/${folder}: update ISOLATED_FEATURES`);
  else if (!isFound) problems.push(`${label} code (src/client/${folder}) was not found in any chunk's source map`);
}
for (const rule of LOADED_ON_DEMAND) {
  if (!usedUserActionRules.has(rule)) {
    const list = LOADED_ON_CONTENT.includes(rule) ? 'LOADED_ON_CONTENT' : 'LOADED_ON_USER_ACTION';
    problems.push(`${list} lists ${rule.module}, which no screen imports lazily: remove it`);
  }
}
const isolationSummary = ISOLATED_FEATURES.map(({ label, ownScreens }) => `${label}: ${ownScreens ?? 0} own screens`);
console.log(`\nisolation (${isolationSummary.join(', ')}): ${leaks.size > 0 ? 'BROKEN' : 'OK'}`);

// ---------------------------------------------------------------------------------------------
// Compressed copies

const servedFiles = await listServedFiles(distRoot);
const servedSet = new Set(servedFiles);
let compressedFiles = 0;
for (const file of servedFiles.filter(isCompressible)) {
  const original = readFileSync(path.join(distRoot, file));
  const isExpected = wantsSiblings(original.length, gzipSync(original, { level: 9 }).length);
  for (const { extension, decompress } of PRECOMPRESSED_ENCODINGS) {
    const copy = path.join(distRoot, `${file}${extension}`);
    if (!existsSync(copy)) {
      if (isExpected) problems.push(`dist/client/${file} has no ${extension} copy (scripts/vite-precompress.ts)`);
      continue;
    }
    if (!decompress(readFileSync(copy)).equals(original)) {
      problems.push(`dist/client/${file}${extension} does not decompress to dist/client/${file}`);
    }
  }
  if (isExpected) compressedFiles += 1;
}
const copies = (await readdir(distRoot, { recursive: true })).filter((file) =>
  PRECOMPRESSED_ENCODINGS.some(({ extension }) => file.endsWith(extension)),
);
for (const copy of copies) {
  const file = copy.slice(0, -path.extname(copy).length);
  if (!servedSet.has(file) || !isCompressible(file)) problems.push(`dist/client/${copy} is a copy of nothing served`);
}
console.log(`compressed copies: ${compressedFiles} files with .br and .gz, ${copies.length} copies checked`);

// ---------------------------------------------------------------------------------------------
// No inlined fonts: the Content-Security-Policy has no font-src, so default-src 'self' refuses a
// font as a data: URL (KaTeX's small fonts were inlined once: vite.config.ts, assetsInlineLimit).

for (const file of servedFiles.filter((name) => name.endsWith('.css'))) {
  if (/url\(\s*["']?data:(font\/|application\/(x-)?font)/i.test(readFileSync(path.join(distRoot, file), 'utf8'))) {
    problems.push(`dist/client/${file} inlines a font as a data: URL, which the CSP refuses`);
  }
}

if (problems.length > 0) {
  console.error(`\nBundle budget check failed:\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
  process.exit(1);
}
console.log(
  `Bundle budget check passed: ${screens.length} routes within budget; the landing page at / downloads ` +
    `${formatKb(landingBytes)} kB gzipped JS (${landing.chunks.size} files, budget ${LANDING_BUDGET_KB} kB); ` +
    `${checkedMessages} message uses found in the routes' catalogs.`,
);
