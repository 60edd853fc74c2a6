import { randomInt } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { APIRequestContext, BrowserContext, Page, Response } from '@playwright/test';
import { buildNewQuiz, buildStudentRegistration } from '../../src/server/testing/factories.ts';
import { PRODUCT_NAME } from '../../src/shared/constants.ts';
import { LOCALE_COOKIE, LOCALES } from '../../src/shared/locales.ts';
import { createClass, registeredTeacher } from './api-setup.ts';
import { expect, test } from './fixtures.ts';
import {
  closeDialog,
  control,
  dialogState,
  fieldErrorsState,
  openDialog,
  pseudo,
  toastState,
  type ScreenState,
} from './screen-states.ts';
import { administratorToken, E2E_ADMINISTRATOR } from './school-setup.ts';

/**
 * Nothing untranslated slips in (issue 32 point 7): every route of both roles, signed out too, in
 * the pseudo-locale (the cookie studyhall_locale=pseudo: every message accented, "Śĩĝń ĩń"), and
 * after each route's first view the states a person reaches from it (screen-states.ts): its
 * dialogs and confirmation questions, toasts, field errors, the bell's panel and the side menu,
 * empty lists beside filled ones, the quiz runner's steps, the meeting room's panels, the
 * whiteboard with a drawing, the class board's pages, pen panel and questions. The
 * test's own data (class, quiz, student) is Greek, so any Latin word of two or more letters left on
 * screen, in a text node, an aria-label, title, placeholder, alt or the document's title, did not
 * come through the layer. Allowed: the brand, codes (capitals and digits), emails, addresses,
 * numbers, dates and times as Intl writes them (it has no pseudo-locale: English), data the server
 * sent (names, titles and the like of other scenarios' accounts), and text marked with a language
 * other than English (`lang`). Text marked English (<Untranslated>, a server's sentence) is found.
 */

type Finding = { route: string; where: string; text: string };

// ---- the data: Greek, so that Latin text on screen is the interface's own ----

const digits = () => String(randomInt(100_000, 999_999));

async function postOk(request: APIRequestContext, url: string, data: unknown, token?: string) {
  const response = await request.post(url, { data, headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(response.ok(), `${url}: ${await response.text()}`).toBe(true);
  return (await response.json()).data;
}

/** A quiz of two questions in `classId`, Greek (its questions' texts are data). */
async function addGreekQuiz(request: APIRequestContext, token: string, classId: string, title: string) {
  return (await postOk(
    request,
    '/api/teacher/add-quiz',
    buildNewQuiz({
      title,
      classId,
      quiz: {
        background: buildNewQuiz().quiz.background,
        questions: [
          { question_text: 'Πόσο κάνει δύο και δύο;', options: ['4', '3', '5'], answer: '4' },
          { question_text: 'Ποια είναι η πρωτεύουσα της Ελλάδας;', options: ['Αθήνα', 'Πάτρα'], answer: 'Αθήνα' },
        ],
      },
    }),
    token,
  )) as { _id: string; title: string };
}

async function seedGreekSchoolDay(request: APIRequestContext) {
  const token = await administratorToken(request);
  const suffix = digits();
  const klass = await createClass(request, token, `Τμήμα Β${suffix}`);
  // A class nobody joined yet: its screen's empty roster.
  const emptyClass = await createClass(request, token, `Τμήμα Γ${suffix}`);
  const student = buildStudentRegistration({
    name: `Ελένη Παπαδοπούλου ${suffix}`,
    rollNumber: `μαθ-${suffix}`,
    email: `student.${suffix}@school.test`,
    classCode: klass.joinCode,
    parentName: `Γιώργος Παπαδόπουλος ${suffix}`,
    parentEmail: `parent.${suffix}@family.test`,
  });
  await postOk(request, '/api/student/register', student);
  // Made after the student joined: each reaches the student's bell (decision 059).
  const quiz = await addGreekQuiz(request, token, klass.id, `Διαγώνισμα ${suffix}`);
  // Never attempted: the runner's states (start, questions, result), and analytics with no attempt.
  const freshQuiz = await addGreekQuiz(request, token, klass.id, `Τεστ ${suffix}`);
  // One attempt, handed in: the analytics, marking, leaderboard and statistics screens have rows.
  const studentToken = (await postOk(request, '/api/student/login', {
    rollNumber: student.rollNumber,
    password: student.password,
  })) as string;
  const started = (await postOk(request, `/api/quiz/${quiz._id}/start`, {}, studentToken)) as {
    quiz: { questions: { _id: string; options: { text: string }[] }[] };
  };
  const questions = started.quiz.questions.map((question) => ({
    _id: question._id,
    selectedOption: question.options[0]!.text,
  }));
  await postOk(request, '/api/student/update-student', { quiz: { _id: quiz._id, questions } }, studentToken);
  await postOk(
    request,
    '/api/teacher/add-resource-link',
    { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', fileName: `Μάθημα ${suffix}`, classId: klass.id },
    token,
  );
  // Another teacher of the school: the staff screen's changes to a teacher ask first.
  await registeredTeacher(request);
  const room = (await postOk(request, '/api/meetings', { classId: klass.id }, token)) as { roomId: string };
  // An assignment (issue 33) with a draft: the student's list and its page have content.
  const assignment = (await postOk(
    request,
    '/api/assignments',
    {
      classIds: [klass.id],
      title: `Εργασία ${suffix}`,
      instructions: 'Γράψε **μία σελίδα** για ένα ποτάμι.',
      points: 10,
      dueAt: new Date(Date.now() + 86_400_000).toISOString(),
      acceptLate: true,
    },
    token,
  )) as { _id: string };
  // Live games (issue 34): one the teacher plays through its states with the student, one left in
  // its lobby (the dashboards' banners). Of two quizzes: opening a lobby ends an empty one of the same.
  const liveGame = (await postOk(
    request,
    '/api/live-games',
    { quizId: quiz._id, classId: klass.id, questionSeconds: 120 },
    token,
  )) as { _id: string };
  await postOk(request, '/api/live-games', { quizId: freshQuiz._id, classId: klass.id }, token);
  return {
    klass,
    emptyClass,
    quiz,
    freshQuiz,
    student,
    roomId: room.roomId,
    assignmentId: assignment._id,
    liveGameId: liveGame._id,
  };
}

// ---- what a person reads on the page, and which of it is untranslated ----

/** Keys of the API's answers whose values are people's data (names, titles, texts they wrote). */
const DATA_KEY =
  /name|title|subject|email|note|text|prompt|match|answer|accepted|options|description|caption|url|link|file|roll|author|quote|school|room|class/i;

/** Strings the server sent as data, to be read on screen as they are (never its `message`s). */
function collectData(value: unknown, into: Set<string>, isData = false): void {
  if (typeof value === 'string') {
    if (isData && value.trim().length > 1) into.add(value.trim());
  } else if (Array.isArray(value)) {
    for (const item of value) collectData(item, into, isData);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === 'message' || key === 'error') continue;
      collectData(item, into, isData || DATA_KEY.test(key));
    }
  }
}

function watchData(page: Page) {
  const data = new Set<string>([
    E2E_ADMINISTRATOR.schoolName,
    E2E_ADMINISTRATOR.name,
    E2E_ADMINISTRATOR.subject,
    // Each language is named in itself in the switcher ("English"), whatever the interface's.
    ...Object.values(LOCALES).map(({ name }) => name),
  ]);
  const pending = new Set<Promise<void>>();
  page.on('response', (response: Response) => {
    if (!new URL(response.url()).pathname.startsWith('/api/')) return;
    if (!(response.headers()['content-type'] ?? '').includes('json')) return;
    const read: Promise<void> = response
      .json()
      .then((body: unknown) => collectData((body as { data?: unknown })?.data, data))
      .catch(() => {})
      .finally(() => pending.delete(read));
    pending.add(read);
  });
  return { data, settled: () => Promise.all([...pending]) };
}

const MONTHS = 'Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec';
const UNITS = 'second|minute|hour|day|week|month|quarter|year|sec|min|hr|wk|mo|yr';
/** Pieces of text that are no interface wording: struck out before the Latin words are looked for. */
const ALLOWED: RegExp[] = [
  /\b(StudyHall|EMeet)\b/g, // the product and its meeting rooms: names, not words
  // Names too: the video sites a link may come from, the question formats an import reads.
  /\b(YouTube|Vimeo|Wistia|Moodle|Aiken)\b/g,
  // A zone as formatTimeZone names it: its IANA place isolated, then Intl's name for the zone, which
  // is English in a locale Intl does not know (the pseudo-locale), worded by Intl in the real ones.
  /\u2068((Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)\/[^\u2069]+|UTC)\u2069( · [^\u2068\u2069]+)?/g,
  // IANA time-zone names (the school's zone, decision 062): identifiers, the same in every language.
  /\b(Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)\/[\w/+-]+|\bUTC\b/g,
  /[\w.+-]+@[\w-]+(\.[\w-]+)+/g, // emails
  /\b(https?|wss?):\/\/\S+/g, // addresses
  /(^|\s)\/[\w\-./?=&%]+/g, // paths (/auth/teacher/login)
  // Intl's dates, times, relative times, lists and units, English in a locale it does not know.
  new RegExp(`\\b(${MONTHS})\\b`, 'g'),
  /\b\d{1,2}:\d{2}(:\d{2})?\s?(AM|PM|am|pm)\b/g,
  new RegExp(`\\b(in )?\\d[\\d.,]*\\s(${UNITS})s?\\.?( ago)?\\b`, 'g'),
  /\b(yesterday|today|tomorrow|now|(last|next|this) (week|month|year|quarter))\b/g,
  /(?<=[^\p{ASCII}],?) (and|or) (?=[^\p{ASCII}])/gu, // Intl.ListFormat between data
  /\b\d[\d.,]*\s?(B|kB|KB|MB|GB|bytes?)\b/g,
  // Last, as the numbers above need their digits: codes (join codes, roll numbers: capitals and digits).
  /\b[A-Z0-9]+(-[A-Z0-9]+)*\b/g,
];
/** A run of two or more Latin letters that is a whole word (accented pseudo letters are not Latin). */
const LATIN_WORD = /(?<!\p{L})[A-Za-z]{2,}(?!\p{L})/u;

function untranslatedIn(text: string, data: Iterable<string>): boolean {
  let rest = text;
  for (const value of [...data].sort((a, b) => b.length - a.length)) {
    if (rest.includes(value)) rest = rest.split(value).join(' ');
  }
  for (const pattern of ALLOWED) rest = rest.replace(pattern, ' ');
  return LATIN_WORD.test(rest);
}

type Read = { where: string; text: string };

/** Every text a person reads on the page now: visible text, labels, titles, placeholders, alt texts. */
async function textsOnScreen(page: Page): Promise<Read[]> {
  return page.evaluate(async () => {
    const reads: { where: string; text: string }[] = [{ where: 'document title', text: document.title }];
    // The camera's and microphone's names are the browser's (the meeting's device choice).
    const devices = (await navigator.mediaDevices?.enumerateDevices()) ?? [];
    const deviceNames = new Set(devices.flatMap((device) => [device.label, device.deviceId]));
    // Text marked as another language than English is no interface text (the switcher's
    // "Español"). Marked English is: <Untranslated> and a server's sentence say lang="en".
    const ownLanguage = (element: Element) => {
      const marked = element.closest('[lang]');
      const lang = marked?.getAttribute('lang')?.toLowerCase() ?? '';
      return marked !== null && marked !== document.documentElement && !lang.startsWith('en');
    };
    const seen = (element: Element) => {
      const box = element.closest('option') ? element.closest('select') : element;
      return box !== null && box.checkVisibility({ visibilityProperty: true });
    };
    const describe = (element: Element) => {
      const id = element.id ? `#${element.id}` : '';
      const role = element.getAttribute('role');
      return `<${element.tagName.toLowerCase()}${id}${role ? ` role=${role}` : ''}>`;
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.replace(/\s+/g, ' ').trim() ?? '';
      if (!parent || !text || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(parent.tagName)) continue;
      if (!seen(parent) || ownLanguage(parent)) continue;
      reads.push({ where: `text in ${describe(parent)}`, text });
    }
    const attributes = [
      'aria-label',
      'aria-description',
      'aria-valuetext',
      'aria-roledescription',
      'title',
      'placeholder',
      'alt',
    ];
    for (const element of document.body.querySelectorAll('*')) {
      if (!seen(element) || ownLanguage(element)) continue;
      for (const name of attributes) {
        const text = element.getAttribute(name)?.trim();
        if (text) reads.push({ where: `${name} of ${describe(element)}`, text });
      }
      if (
        element instanceof HTMLInputElement &&
        ['submit', 'button', 'reset'].includes(element.type) &&
        element.value
      ) {
        reads.push({ where: `value of ${describe(element)}`, text: element.value });
      }
    }
    return reads.filter(({ text }) => !deviceNames.has(text));
  });
}

/** Waits until the screen has its content: the app's chunk and data loaded, no spinner left. */
async function settle(page: Page) {
  await page.waitForLoadState('load');
  await expect(page.locator('.animate-spin:visible')).toHaveCount(0);
  // Most screens have their heading; the few that have none (a meeting) are read as they are.
  await page
    .locator('h1:visible, [role=alert]:visible')
    .first()
    .waitFor({ timeout: 5_000 })
    .catch(() => {});
}

async function scan(page: Page, route: string, watched: ReturnType<typeof watchData>, findings: Finding[]) {
  await settle(page);
  await watched.settled();
  const lang = await page.locator('html').getAttribute('lang');
  if (lang !== 'en-XA')
    findings.push({ route, where: '<html lang>', text: `lang="${lang}", not the pseudo-locale's en-XA` });
  // Every screen names itself in the tab ("Quizzes · StudyHall"), not the bare product name.
  if (!route.startsWith('/ ') && (await page.title()) === PRODUCT_NAME)
    findings.push({ route, where: 'document title', text: `the bare "${PRODUCT_NAME}": no PageTitle` });
  for (const read of await textsOnScreen(page)) {
    if (untranslatedIn(read.text, watched.data)) findings.push({ route, ...read });
  }
}

/** A screen, and the states of it the pass opens after its first view (screen-states.ts). */
type Visit = string | { route: string; states: ScreenState[] };

/**
 * Opens each screen and reads its first view, then reaches each of its states in turn and reads
 * it too (named `route → state`). `prepare` runs after each page load (study mode's full screen).
 */
async function visitAll(
  page: Page,
  visits: Visit[],
  watched: ReturnType<typeof watchData>,
  findings: Finding[],
  prepare: (page: Page) => Promise<void> = async () => {},
) {
  for (const visit of visits) {
    const { route, states } = typeof visit === 'string' ? { route: visit, states: [] } : visit;
    await test.step(route, async () => {
      await page.goto(route);
      await prepare(page);
      await scan(page, route, watched, findings);
    });
    for (const state of states) {
      await test.step(`${route} → ${state.name}`, async () => {
        await state.reach(page);
        await scan(page, `${route} → ${state.name}`, watched, findings);
        await (state.leave ?? closeDialog)(page);
      });
    }
  }
}

async function pseudoCookie(context: BrowserContext, baseURL: string) {
  await context.addCookies([{ name: LOCALE_COOKIE, value: 'pseudo', url: baseURL }]);
}

function report(findings: Finding[], file: string) {
  const unique = [...new Map(findings.map((finding) => [JSON.stringify(finding), finding])).values()];
  writeFileSync(file, JSON.stringify(unique, null, 2));
  return unique.map(({ route, where, text }) => `${route}  [${where}]  ${JSON.stringify(text)}`).join('\n');
}

// ---- the states each screen is read in, after its first view ----

/** The header's bell opened: its panel, once its list has loaded (empty or not). */
const bellPanel = (name: string): ScreenState => ({
  name,
  reach: async (page) => {
    await page.locator('header button[aria-expanded]').click();
    await expect(openDialog(page)).toBeVisible();
    await expect(openDialog(page).getByText(pseudo('Loading…'))).toHaveCount(0);
  },
});

/** Turns the side menu the other way (collapsed on a desktop, expanded over the page on a phone). */
async function toggleSideMenu(page: Page) {
  const toggle = page.locator('nav[data-expanded] > button[aria-expanded]');
  const wasExpanded = await toggle.getAttribute('aria-expanded');
  await toggle.click();
  await expect(toggle).not.toHaveAttribute('aria-expanded', wasExpanded!);
}

const sideMenuToggled: ScreenState = { name: 'side menu toggled', reach: toggleSideMenu, leave: toggleSideMenu };

/** The meeting room's states, from its pre-join screen: in the room, each panel, and left. */
const MEETING_STATES: ScreenState[] = [
  {
    name: 'in the room',
    reach: async (page) => {
      await control(page, 'Join').click();
      await expect(page.locator('[data-panel-toggle=people]')).toBeVisible();
    },
    leave: async () => {},
  },
  ...(['people', 'chat'] as const).map((panel): ScreenState => ({
    name: `${panel} panel`,
    reach: async (page) => {
      await page.locator(`[data-panel-toggle=${panel}]`).click();
      await expect(page.locator(`[data-panel-toggle=${panel}]`)).toHaveAttribute('aria-pressed', 'true');
    },
    leave: async (page) => {
      await page.locator(`[data-panel-toggle=${panel}]`).click();
      await expect(page.locator(`[data-panel-toggle=${panel}]`)).toHaveAttribute('aria-pressed', 'false');
    },
  })),
  {
    name: 'left the meeting',
    reach: async (page) => {
      await control(page, 'Leave').click();
      await expect(page.locator('#meeting-ended-title')).toBeVisible();
    },
    leave: async () => {},
  },
];

/** The whiteboard with a stroke on it, then Clear's question (an empty board has nothing to clear). */
const WHITEBOARD_STATES: ScreenState[] = [
  {
    name: 'a stroke drawn',
    reach: async (page) => {
      const box = (await page.locator('canvas').first().boundingBox())!;
      await page.mouse.move(box.x + box.width / 3, box.y + box.height / 3);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
      await expect(control(page, 'Undo')).not.toHaveAttribute('aria-disabled', 'true');
    },
    leave: async () => {},
  },
  dialogState('clear question', 'Clear'),
];

/** One of the class board's pen panel's choices of who draws. */
const penMode = (page: Page, english: string) =>
  page.locator('#board-pen-panel').getByRole('radio', { name: pseudo(english), exact: true });

/**
 * The class board (issue 35) as its teacher finds it, with no page yet: a page added (the drawing
 * and the pen's tools), the pen panel (who draws, the class's students) and the toasts of a change
 * and of its undoing (the pen is the teachers' again, as the student's visit expects), a second
 * page (a page can be deleted only beside another), then the page's dialog and questions.
 */
const CLASS_BOARD_STATES: ScreenState[] = [
  {
    name: 'a page added',
    reach: async (page) => {
      await control(page, 'Add page').click();
      await expect(page.getByTestId('board-input')).toBeVisible();
    },
    leave: async () => {},
  },
  {
    name: 'pen panel open',
    reach: async (page) => {
      await control(page, 'Who draws').click();
      await expect(page.locator('#board-pen-panel [role=switch]').first()).toBeVisible();
    },
    leave: async () => {},
  },
  toastState('pen panel: everyone draws, toast', async (page) => {
    await penMode(page, 'Everyone').click();
    await expect(penMode(page, 'Everyone')).toBeChecked();
  }),
  toastState('pen panel: teachers only again, toast', async (page) => {
    await penMode(page, 'Teachers only').click();
    await expect(penMode(page, 'Teachers only')).toBeChecked();
  }),
  {
    name: 'pen panel closed, a second page added',
    reach: async (page) => {
      await control(page, 'Who draws').click();
      await expect(page.locator('#board-pen-panel')).toHaveCount(0);
      await control(page, 'Add page').click();
      await expect(control(page, 'Delete page')).not.toHaveAttribute('aria-disabled', 'true');
    },
    leave: async () => {},
  },
  dialogState('rename page dialog', 'Rename page'),
  dialogState('page delete question', 'Delete page'),
  dialogState('clear page question', 'Clear page'),
];

const SIGN_OUT_EVERYWHERE_QUESTION = dialogState('sign out everywhere question', 'Sign out of all devices');

test('the pseudo-locale pass: every route of both roles shows no untranslated text', async ({
  page,
  browser,
  baseURL,
  pageErrors,
}, testInfo) => {
  // The wrong password's answer (a state of the login screen).
  pageErrors.allow(/status of 401 \(Unauthorized\)/);
  testInfo.setTimeout(testInfo.timeout * 6);
  const findings: Finding[] = [];
  const seeded = await seedGreekSchoolDay(page.request);

  // Signed out: the landing page, the auth pages and the first run's screen (already set up).
  await pseudoCookie(page.context(), baseURL!);
  const watched = watchData(page);
  // The room was made through the API (not the page): its id, a code in the address, is data.
  watched.data.add(seeded.roomId);
  // GET / answers the landing page prerendered in a shipped language (decision 014), which the
  // pseudo-locale is not; the app's own landing route, reached by the brand link, renders it.
  await page.goto('/auth');
  await page.getByRole('link', { name: 'StudyHall' }).first().click();
  await expect(page.locator('#landing-title')).toBeVisible();
  await scan(page, '/ (the app’s landing route)', watched, findings);
  await visitAll(
    page,
    [
      '/auth',
      {
        route: '/auth/teacher/login',
        states: [
          fieldErrorsState(),
          // A failure is a toast, and marks the field the server named.
          toastState('a wrong password', async (page) => {
            await page.locator('input[name=email]').fill(E2E_ADMINISTRATOR.email);
            await page.locator('input[name=password]').fill('not-the-password');
            await page.locator('input[name=password]').press('Enter');
          }),
        ],
      },
      { route: '/auth/teacher/register', states: [fieldErrorsState()] },
      { route: '/auth/student/login', states: [fieldErrorsState()] },
      { route: '/auth/student/register', states: [fieldErrorsState()] },
      '/setup',
      // The router's error screen: a mistyped address (its header too, outside the app's provider).
      '/no-such-page',
    ],
    watched,
    findings,
  );

  // The student, in a browser of their own: study mode's overlay first, then each screen in full screen.
  const { viewport, isMobile, hasTouch } = testInfo.project.use;
  const studentContext = await browser.newContext({ viewport, isMobile, hasTouch, baseURL });
  await pseudoCookie(studentContext, baseURL!);
  const studentPage = await studentContext.newPage();
  const studentWatched = watchData(studentPage);
  studentWatched.data.add(seeded.roomId);
  await studentPage.goto('/auth/student/login');
  await studentPage.locator('input[name=rollNumber]').fill(seeded.student.rollNumber);
  await studentPage.locator('input[name=password]').fill(seeded.student.password);
  await studentPage.locator('input[name=password]').press('Enter');
  await expect(studentPage).toHaveURL(/\/dashboard\/student$/);
  const overlay = studentPage.getByTestId('study-mode-overlay');
  await expect(overlay).toBeVisible();
  await scan(studentPage, '/dashboard/student (study mode overlay)', studentWatched, findings);
  const student = '/dashboard/student';
  // A page load leaves full screen: study mode's overlay (read once above) comes back.
  const inStudyMode = async (page: Page) => {
    await settle(page);
    if (await overlay.isVisible()) {
      await page.keyboard.press('f');
      await expect(overlay).toBeHidden();
    }
  };
  // The student waits in the live game's lobby while the teacher hosts it (below).
  const livePlayer = `${student}/live/${seeded.liveGameId}`;
  await studentPage.goto(livePlayer);
  await inStudyMode(studentPage);
  await expect(studentPage.getByText(pseudo('You’re in!'))).toBeVisible();
  await scan(studentPage, `${livePlayer} (the lobby)`, studentWatched, findings);
  /** The host's step, then what the projector and the student's phone read after it. */
  const liveStep = (name: string, act: (page: Page) => Promise<void>): ScreenState => ({
    name,
    reach: async (page) => {
      await act(page);
      await scan(studentPage, `${livePlayer} (${name})`, studentWatched, findings);
    },
    leave: async () => {},
  });
  const LIVE_HOST_STATES = [
    liveStep('a question open', async (page) => {
      await control(page, 'Start').click();
      await expect(control(page, 'Skip')).toBeVisible();
      await expect(studentPage.getByRole('button', { name: '4', exact: true })).toBeVisible();
    }),
    liveStep('the question closed', async (page) => {
      await control(page, 'Skip').click();
      await expect(control(page, 'Next')).toBeVisible();
    }),
    liveStep('the podium', async (page) => {
      await control(page, 'Next').click();
      await control(page, 'Skip').click();
      await control(page, 'Show podium').click();
      await expect(control(page, 'Show podium')).toBeHidden();
      await expect(studentPage.getByTestId('live-score')).toBeVisible();
    }),
  ];

  // The teacher: the school's administrator, who sees every teacher's screen and the staff screen.
  await page.goto('/auth/teacher/login');
  await page.locator('input[name=email]').fill(E2E_ADMINISTRATOR.email);
  await page.locator('input[name=password]').fill(E2E_ADMINISTRATOR.password);
  await page.locator('input[name=password]').press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/teacher$/);
  const teacher = '/dashboard/teacher';
  const quizId = seeded.quiz._id;
  await visitAll(
    page,
    [
      { route: teacher, states: [bellPanel('notifications panel, nothing new'), sideMenuToggled] },
      { route: `${teacher}/all-quiz`, states: [dialogState('play live dialog', 'Play live')] },
      {
        route: `${teacher}/create-quiz`,
        states: [
          fieldErrorsState(),
          dialogState('background dialog', 'Select quiz background'),
          dialogState('import questions dialog', 'Import questions'),
        ],
      },
      `${teacher}/edit-quiz/${quizId}`,
      `${teacher}/edit-quiz/${quizId}?dialog=duplicate`,
      `${teacher}/edit-quiz/${quizId}?dialog=delete`,
      `${teacher}/preview/${encodeURIComponent(seeded.quiz.title)}`,
      {
        route: `${teacher}/quiz-analytics/${quizId}`,
        states: [
          {
            name: 'accommodation form',
            reach: async (page) => {
              await control(page, 'Add accommodation').click();
              await expect(control(page, 'Add accommodation')).toBeHidden();
            },
          },
        ],
      },
      `${teacher}/quiz-analytics/${quizId}/marking`,
      { route: `${teacher}/live/${seeded.liveGameId}`, states: LIVE_HOST_STATES },
      // The game just played: the analytics' list of finished games, and its report.
      `${teacher}/quiz-analytics/${quizId}`,
      `${teacher}/quiz-analytics/${quizId}/live/${seeded.liveGameId}`,
      // No attempt yet: the empty analytics and marking.
      `${teacher}/quiz-analytics/${seeded.freshQuiz._id}`,
      `${teacher}/quiz-analytics/${seeded.freshQuiz._id}/marking`,
      {
        route: `${teacher}/students`,
        states: [dialogState('edit dialog', 'Edit'), dialogState('reset password question', 'Reset password')],
      },
      // A search that finds no one.
      `${teacher}/students?search=ωωω`,
      { route: `${teacher}/students/add`, states: [fieldErrorsState()] },
      {
        route: `${teacher}/classes`,
        states: [
          fieldErrorsState(),
          toastState('class created', async (page) => {
            await page.locator('form:visible input[name=name]').fill(`Τμήμα Δ${digits()}`);
            await page.locator('form:visible button[type=submit]').click();
          }),
        ],
      },
      {
        route: `${teacher}/classes/${seeded.klass.id}`,
        states: [
          fieldErrorsState('name emptied: field error', {
            prepare: (form) => form.locator('input[name=name]').fill(''),
          }),
          dialogState('archive question', 'Archive class'),
          dialogState('new code question', 'Rotate code'),
          dialogState('code off question', 'Turn off code'),
          dialogState('add student dialog', 'Add student'),
          dialogState('move student dialog', 'Move to class'),
          dialogState('remove student question', 'Remove from class'),
        ],
      },
      `${teacher}/classes/${seeded.emptyClass.id}`,
      `${teacher}/classes/${seeded.klass.id}/gradebook`,
      // The class board, empty until its states add pages (the student reads it below).
      { route: `${teacher}/classes/${seeded.klass.id}/board`, states: CLASS_BOARD_STATES },
      `${teacher}/assignments?class=${seeded.klass.id}`,
      { route: `${teacher}/assignments/new?class=${seeded.klass.id}`, states: [fieldErrorsState()] },
      `${teacher}/assignments/${seeded.assignmentId}`,
      `${teacher}/assignments/${seeded.assignmentId}/edit`,
      `${teacher}/leaderboard`,
      {
        route: `${teacher}/resources`,
        states: [
          fieldErrorsState('upload form: field errors'),
          {
            name: 'video link form: field errors',
            reach: async (page) => {
              await page.locator('details summary').click();
              await page.locator('details form button[type=submit]').click();
              await expect(page.locator('details [aria-invalid=true]').first()).toBeVisible();
            },
          },
          dialogState('edit dialog', 'Edit'),
          dialogState('delete question', 'Delete'),
        ],
      },
      { route: `${teacher}/canvas`, states: WHITEBOARD_STATES },
      { route: `${teacher}/emeet`, states: [fieldErrorsState('empty room ID')] },
      { route: `${teacher}/meet/${seeded.roomId}`, states: MEETING_STATES },
      { route: `${teacher}/account`, states: [fieldErrorsState(), SIGN_OUT_EVERYWHERE_QUESTION] },
      {
        route: `${teacher}/staff`,
        states: [
          dialogState('change a teacher question', 'Deactivate'),
          toastState('invitation created', (page) => control(page, 'Create invitation link').click()),
          dialogState('revoke question', 'Revoke'),
        ],
      },
      `${teacher}/no-such-screen`,
    ],
    watched,
    findings,
  );

  await visitAll(
    studentPage,
    [
      { route: student, states: [bellPanel('notifications panel, two quizzes'), sideMenuToggled] },
      `${student}/quiz`,
      // Handed in: the result and its review.
      `${student}/quiz/${quizId}`,
      {
        route: `${student}/quiz/${seeded.freshQuiz._id}`,
        states: [
          {
            name: 'the first question',
            reach: async (page) => {
              await control(page, 'Start quiz').click();
              await expect(control(page, 'Next question')).toBeVisible();
            },
            leave: async () => {},
          },
          {
            name: 'an answer chosen, the last question',
            reach: async (page) => {
              await page.getByRole('radio').first().check();
              await control(page, 'Next question').click();
              await expect(control(page, 'Submit')).toBeVisible();
            },
            leave: async () => {},
          },
          {
            name: 'submitted: the result and review',
            reach: async (page) => {
              await page.getByRole('radio').first().check();
              await control(page, 'Submit').click();
              await expect(page.locator('#result-title')).toBeVisible();
            },
            leave: async () => {},
          },
        ],
      },
      { route: `${student}/live`, states: [fieldErrorsState()] },
      `${student}/assignments`,
      `${student}/assignments/${seeded.assignmentId}`,
      `${student}/grades`,
      {
        route: `${student}/classes`,
        states: [
          fieldErrorsState(),
          toastState('a code no class has', async (page) => {
            await page.locator('form:visible input').first().fill('ZZZZ-ZZZZ');
            await page.locator('form:visible button[type=submit]').click();
          }),
        ],
      },
      // The board the teacher gave two pages above, read only: the pen is the teachers'.
      `${student}/classes/${seeded.klass.id}/board`,
      `${student}/leaderboard`,
      `${student}/statistics`,
      `${student}/resources`,
      { route: `${student}/canvas`, states: WHITEBOARD_STATES },
      { route: `${student}/emeet`, states: [fieldErrorsState('empty room ID')] },
      { route: `${student}/meet/${seeded.roomId}`, states: MEETING_STATES },
      { route: `${student}/account`, states: [fieldErrorsState(), SIGN_OUT_EVERYWHERE_QUESTION] },
      { route: `${student}/choose-password`, states: [fieldErrorsState()] },
    ],
    studentWatched,
    findings,
    inStudyMode,
  );
  await studentContext.close();

  const listed = report(findings, testInfo.outputPath('untranslated.json'));
  expect(findings, `Untranslated text (route  [where]  text), ${testInfo.project.name}:\n${listed}`).toEqual([]);
});
