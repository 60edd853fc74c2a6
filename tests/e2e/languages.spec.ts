import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { setupI18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import type { Browser, BrowserContext, Locator, Page, TestInfo } from '@playwright/test';
import { buildNewQuiz, buildStudentRegistration, TEST_SETUP_CODE } from '../../src/server/testing/factories.ts';
import { QUIZ_BACKGROUNDS } from '../../src/shared/quizzes.ts';
import type { TypedQuestionInput } from '../../src/shared/question-types.ts';
import { LOCALE_COOKIE, LOCALES } from '../../src/shared/locales.ts';
import { patience } from '../../src/server/testing/patience.ts';
import { currentQuestion, enterStudyMode } from './actors.ts';
import { ownInstancePort, startFreshInstance } from './app-instances.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { classList } from './roster-steps.ts';
import { E2E_ADMINISTRATOR } from './school-setup.ts';

/**
 * Issue 32's proof, first bullet: a school day in Arabic and in Spanish at both sizes, on a server
 * of its own (the first run needs one, as in school.spec.ts): the first-run set-up, an invitation
 * and the invited teacher's registration, a class, a student who registers with its code, a quiz
 * of every question type taken, marked and reviewed, the roster import with a bad row, the
 * leaderboards and statistics, and a meeting's pre-join screen. Elements are found by their
 * translated names, read from the catalogs (`tr`), so a text without a translation fails here.
 * At each screen: <html lang dir>, nothing scrolls sideways, axe finds no serious or critical
 * violation; in Arabic a full-page screenshot goes to the test's output folder, to be looked at.
 * The quiz is made through the API (the editor is not the point; its screen is still checked).
 */

type ShippedLocale = Exclude<keyof typeof LOCALES, 'en'>;

// ---- the catalogs: an English message's translation, failing when it has none ----

/** The msgid → msgstr pairs of a locale's catalog (msgctxt-less keys; a context keeps the first). */
function readCatalog(locale: ShippedLocale): Map<string, string> {
  const entries = new Map<string, string>();
  const text = readFileSync(`src/client/locales/${locale}/messages.po`, 'utf8');
  for (const block of text.split(/\r?\n\s*\r?\n/)) {
    const fields: Record<string, string> = {};
    let current: string | undefined;
    for (const line of block.split(/\r?\n/)) {
      const start = /^(msgctxt|msgid|msgstr)\s+(".*")$/.exec(line);
      if (start) {
        current = start[1]!;
        fields[current] = JSON.parse(start[2]!) as string;
      } else if (current && /^".*"$/.test(line)) {
        fields[current] += JSON.parse(line) as string;
      }
    }
    if (fields.msgid && !entries.has(fields.msgid)) entries.set(fields.msgid, fields.msgstr ?? '');
  }
  return entries;
}

const catalogs = new Map<ShippedLocale, { entries: Map<string, string>; i18n: ReturnType<typeof setupI18n> }>();

/**
 * The translation of the English message `id` (as the catalog's msgid: `{name}` placeholders,
 * ICU plurals) in `locale`, formatted with `values` as Lingui does, its `<0>…</0>` tags dropped
 * (the text a person reads). Throws when the catalog has no translation of it.
 */
function translate(locale: ShippedLocale, id: string, values: Record<string, unknown> = {}): string {
  let catalog = catalogs.get(locale);
  if (!catalog) {
    const entries = readCatalog(locale);
    const i18n = setupI18n();
    i18n.setMessagesCompiler(compileMessage);
    i18n.load(locale, Object.fromEntries(entries));
    i18n.activate(locale);
    catalog = { entries, i18n };
    catalogs.set(locale, catalog);
  }
  const { entries, i18n } = catalog;
  if (!entries.get(id)?.trim()) {
    throw new Error(`${locale}: no translation of ${JSON.stringify(id)} in src/client/locales/${locale}/messages.po`);
  }
  return i18n._(id, values).replace(/<\/?\d+>/g, '');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A field's label, whole: a required field's label ends in " *" (hidden from screen readers). */
const wholeLabel = (text: string) => new RegExp(`^${escapeRegExp(text)}(\\s*\\*)?$`);

// ---- the data: in the language under test, so the screens mix directions as a school's would ----

const DATA = {
  ar: {
    schoolName: 'مدرسة النور الثانوية',
    administrator: 'ليلى حداد',
    teacher: 'يوسف العلي',
    subject: 'الرياضيات',
    className: 'الصف العاشر - أ',
    student: 'مريم الخطيب',
    quizTitle: 'اختبار الوحدة الأولى',
    description: 'الأسئلة التالية عن الأعداد والعواصم.',
    single: 'كم يساوي 2 + 2؟',
    multiple: 'أيّ هذه الأعداد زوجية؟',
    trueFalse: 'يتجمّد الماء عند 0 درجة مئوية.',
    shortText: 'ما عاصمة مصر؟',
    shortAnswer: 'القاهرة',
    numeric: 'كم نصف العدد 7؟',
    matching: 'صِل كل بلد بعاصمته',
    pairs: [
      ['مصر', 'القاهرة'],
      ['المغرب', 'الرباط'],
    ],
    extraMatch: 'عمّان',
    essay: 'اشرح لماذا يطفو الجليد فوق الماء.',
    essayAnswer: 'لأن كثافة الجليد أقل من كثافة الماء السائل.',
  },
  es: {
    schoolName: 'Colegio San Martín',
    administrator: 'Lucía Fernández',
    teacher: 'Jorge Ramírez',
    subject: 'Matemáticas',
    className: '4.º B',
    student: 'Sofía Núñez',
    quizTitle: 'Prueba de la unidad 1',
    description: 'Las preguntas siguientes tratan de números y capitales.',
    single: '¿Cuánto es 2 + 2?',
    multiple: '¿Cuáles de estos números son pares?',
    trueFalse: 'El agua se congela a 0 grados Celsius.',
    shortText: '¿Cuál es la capital de Perú?',
    shortAnswer: 'Lima',
    numeric: '¿Cuánto es la mitad de 7?',
    matching: 'Une cada país con su capital',
    pairs: [
      ['Chile', 'Santiago'],
      ['Uruguay', 'Montevideo'],
    ],
    extraMatch: 'Quito',
    essay: 'Explica por qué el hielo flota en el agua.',
    essayAnswer: 'Porque el hielo es menos denso que el agua líquida.',
  },
} as const satisfies Record<ShippedLocale, unknown>;

type Data = (typeof DATA)[ShippedLocale];

/** One question of every type (issue 20, decisions 045 and 046); the description first, where it stays. */
const questionsOf = (data: Data): TypedQuestionInput[] => [
  { type: 'description', question_text: data.description, points: 0 },
  {
    type: 'single',
    question_text: data.single,
    points: 1,
    options: [
      { text: '4', correct: true },
      { text: '3', correct: false },
      { text: '5', correct: false },
    ],
  },
  {
    type: 'multiple',
    question_text: data.multiple,
    points: 2,
    scoring: 'partial',
    options: [
      { text: '2', correct: true },
      { text: '3', correct: false },
      { text: '4', correct: true },
    ],
  },
  { type: 'true-false', question_text: data.trueFalse, points: 1, correct: true },
  { type: 'short-text', question_text: data.shortText, points: 1, accepted: [data.shortAnswer] },
  { type: 'numeric', question_text: data.numeric, points: 1, value: 3.5, tolerance: 0.1 },
  {
    type: 'matching',
    question_text: data.matching,
    points: 2,
    pairs: [...data.pairs.map(([prompt, match]) => ({ prompt, match })), { prompt: '', match: data.extraMatch }],
  },
  { type: 'essay', question_text: data.essay, points: 2 },
];

// ---- the people: each in a browser of their own, the project's size, the language's cookie ----

type Person = { context: BrowserContext; page: Page; errors: string[] };

async function newPerson(browser: Browser, testInfo: TestInfo, baseURL: string, locale: ShippedLocale) {
  const { viewport, isMobile, hasTouch } = testInfo.project.use;
  const context = await browser.newContext({ baseURL, viewport, isMobile, hasTouch });
  await context.addCookies([{ name: LOCALE_COOKIE, value: locale, url: baseURL }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
  return { context, page, errors } satisfies Person;
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

for (const locale of ['ar', 'es'] as const) {
  test(`${locale}: the school's first day in ${LOCALES[locale].name}, every screen in the language and laid out ${LOCALES[locale].dir}`, async ({
    browser,
    playwright,
  }, testInfo) => {
    // Both languages at both sizes, as issue 32's proof asks (Spanish at desktop size was skipped
    // for CI's time by decision 067 until 2026-12-06: about a minute).
    // A server of its own, three people and about thirty checked screens.
    test.setTimeout(patience(240_000));
    const tr = (id: string, values?: Record<string, unknown>) => translate(locale, id, values);
    const data = DATA[locale];
    const isArabic = locale === 'ar';
    const { dir } = LOCALES[locale];
    let shot = 0;

    /**
     * The screen as it is now: its language, nothing sideways, axe; in Arabic, a screenshot. What
     * it finds is listed at the end (soft), so that one screen's fault leaves the others looked at.
     */
    const faults: string[] = [];
    async function look(page: Page, name: string, { fits }: { fits?: Locator } = {}) {
      // The pointer left where the last click was hovers whatever is there now (a menu's tooltip over
      // the text, a button mid-way through its hover colour): the screen as it is read, not pointed at.
      await page.mouse.move(Math.floor(page.viewportSize()!.width / 2), 0);
      const html = page.locator('html');
      expect.soft(await html.getAttribute('lang'), `${name}: <html lang>`).toBe(locale);
      expect.soft(await html.getAttribute('dir'), `${name}: <html dir>`).toBe(dir);
      const [scrollWidth, innerWidth] = await page.evaluate(() => [
        document.documentElement.scrollWidth,
        window.innerWidth,
      ]);
      expect
        .soft(scrollWidth, `${name}: the page scrolls sideways (${scrollWidth} > ${innerWidth})`)
        .toBeLessThanOrEqual(innerWidth);
      if (fits) {
        const [inner, outer] = await fits.evaluate((element) => [element.scrollWidth, element.clientWidth]);
        expect.soft(inner, `${name}: its box scrolls sideways (${inner} > ${outer})`).toBeLessThanOrEqual(outer);
      }
      await expectAccessible(page, `${locale} ${testInfo.project.name}: ${name}`).catch((error: Error) => {
        faults.push(error.message);
      });
      // The screenshots are for a person to look at (issue 32); CI's machine keeps none (decision 067).
      if (isArabic && !process.env.CI) {
        shot += 1;
        await page.screenshot({
          path: testInfo.outputPath(`${String(shot).padStart(2, '0')}-${name}.png`),
          fullPage: true,
        });
      }
    }

    const port = ownInstancePort(locale === 'ar' ? 80 : 82, testInfo.project.name);
    const { instance, stop } = await startFreshInstance(port);
    const api = await playwright.request.newContext({ baseURL: instance.baseUrl });
    const people: Person[] = [];
    const person = async () => {
      const made = await newPerson(browser, testInfo, instance.baseUrl, locale);
      people.push(made);
      return made;
    };
    try {
      // --- The first run: the set-up code, then the school and its administrator ---------------
      const { page: admin } = await person();
      await admin.goto('/');
      const setUp = admin
        .getByRole('link', { name: tr('Set up your school') })
        .filter({ visible: true })
        .first();
      await expect(setUp).toBeVisible();
      await look(admin, 'landing');
      await setUp.click();
      await expect(admin).toHaveURL(/\/setup$/);
      await expect(admin.getByRole('heading', { level: 1, name: tr('Set up your school') })).toBeVisible();
      await look(admin, 'setup-code');
      await admin.getByLabel(wholeLabel(tr('Set-up code'))).fill(TEST_SETUP_CODE);
      await admin.getByRole('button', { name: tr('Continue'), exact: true }).click();
      await expect(admin.getByLabel(wholeLabel(tr('School name')))).toBeVisible();
      // The school's language is asked for, offering first the one the page is read in (issue 32 point 4).
      await expect(admin.getByRole('combobox', { name: wholeLabel(tr("The school's language")) })).toHaveValue(locale);
      await admin.getByLabel(wholeLabel(tr('School name'))).fill(data.schoolName);
      await admin.getByLabel(wholeLabel(tr('Full name'))).fill(data.administrator);
      await admin.getByLabel(wholeLabel(tr('Subject'))).fill(E2E_ADMINISTRATOR.subject);
      await admin.getByLabel(wholeLabel(tr('Email'))).fill(E2E_ADMINISTRATOR.email);
      await admin.getByLabel(wholeLabel(tr('Password'))).fill(E2E_ADMINISTRATOR.password);
      await look(admin, 'setup-school');
      await admin.getByRole('button', { name: tr('Set up the school'), exact: true }).click();
      await expect(admin).toHaveURL(/\/dashboard\/teacher$/);
      expect((await (await api.get('/api/school')).json()).data.defaultLocale).toBe(locale);
      await expect(admin.getByRole('heading', { level: 1 })).toBeVisible();
      await look(admin, 'teacher-dashboard');

      // --- The administrator invites a teacher --------------------------------------------------
      await admin
        .getByRole('navigation', { name: tr('Teacher menu') })
        .getByRole('link', { name: tr('Staff'), exact: true })
        .click();
      await expect(admin).toHaveURL(/\/dashboard\/teacher\/staff$/);
      await admin.getByLabel(wholeLabel(tr('Note (optional)'))).fill(data.teacher);
      await admin.getByRole('button', { name: tr('Create invitation link'), exact: true }).click();
      const linkField = admin.getByRole('textbox', { name: tr('Invitation link'), exact: true });
      await expect(linkField).toHaveValue(/\/auth\/teacher\/register\?invitation=[A-Za-z0-9_-]{32}$/);
      const link = await linkField.inputValue();
      await look(admin, 'staff-invitation');

      // --- The teacher registers by the link, signs in, makes a class ---------------------------
      const { page: teacher } = await person();
      const teacherAccount = {
        name: data.teacher,
        subject: data.subject,
        email: `teacher.${randomBytes(3).toString('hex')}@school.test`,
        password: 'teacher-password-1234',
      };
      await teacher.goto(link);
      await expect(
        teacher.getByText(tr("You're invited to join <0>{schoolName}</0>.", { schoolName: data.schoolName })),
      ).toBeVisible();
      // A field's problem is worded from its code, in the language: the schemas carry no sentences.
      await teacher.getByLabel(wholeLabel(tr('Email'))).fill('not-an-email');
      await teacher.getByRole('button', { name: tr('Register'), exact: true }).click();
      // At the fields (the first problem is a toast too).
      const form = teacher.getByRole('main');
      await expect(form.getByText(tr('{label} is required', { label: tr('Full name') }))).toBeVisible();
      await expect(form.getByText(tr('{label} must be a valid email address', { label: tr('Email') }))).toBeVisible();
      await look(teacher, 'teacher-register-problems');
      await teacher.getByLabel(wholeLabel(tr('Full name'))).fill(teacherAccount.name);
      await teacher.getByLabel(wholeLabel(tr('Subject'))).fill(teacherAccount.subject);
      await teacher.getByLabel(wholeLabel(tr('Email'))).fill(teacherAccount.email);
      await teacher.getByLabel(wholeLabel(tr('Password'))).fill(teacherAccount.password);
      await look(teacher, 'teacher-register');
      await teacher.getByRole('button', { name: tr('Register'), exact: true }).click();
      await expect(teacher).toHaveURL(/\/auth\/teacher\/login$/);
      await teacher.getByLabel(wholeLabel(tr('Email'))).fill(teacherAccount.email);
      await teacher.getByLabel(wholeLabel(tr('Password'))).fill(teacherAccount.password);
      await look(teacher, 'teacher-login');
      await teacher.getByLabel(wholeLabel(tr('Password'))).press('Enter');
      await expect(teacher).toHaveURL(/\/dashboard\/teacher$/);

      await teacher
        .getByRole('navigation', { name: tr('Teacher menu') })
        .getByRole('link', { name: tr('Classes'), exact: true })
        .click();
      await expect(teacher).toHaveURL(/\/dashboard\/teacher\/classes$/);
      await teacher.getByRole('textbox', { name: wholeLabel(tr('Class name')) }).fill(data.className);
      await teacher.getByRole('textbox', { name: wholeLabel(tr('Subject (optional)')) }).fill(data.subject);
      await teacher.getByRole('button', { name: tr('Create class'), exact: true }).click();
      const classLink = teacher.getByRole('link', { name: new RegExp(escapeRegExp(data.className)) });
      await expect(classLink).toBeVisible();
      await look(teacher, 'classes');
      await classLink.click();
      await expect(teacher.getByRole('heading', { level: 1, name: data.className })).toBeVisible();
      const classId = /\/classes\/([0-9a-f-]{36})$/.exec(teacher.url())![1]!;
      const joinCode = await teacher.getByRole('textbox', { name: tr('Join code'), exact: true }).inputValue();
      expect(joinCode).toMatch(/^[A-Z0-9-]{4,}$/);
      await look(teacher, 'class-page');

      // The quiz through the API (the editor is not this scenario's point), answers shown after submitting.
      const teacherToken = (
        await (
          await api.post('/api/teacher/login', {
            data: { email: teacherAccount.email, password: teacherAccount.password },
          })
        ).json()
      ).data as string;
      const added = await api.post('/api/teacher/add-quiz', {
        headers: auth(teacherToken),
        data: buildNewQuiz({
          title: data.quizTitle,
          classId,
          reviewAnswers: 'after-submit',
          reviewScore: 'after-submit',
          quiz: { background: QUIZ_BACKGROUNDS[2]!, questions: questionsOf(data) },
        }),
      });
      expect(added.ok(), await added.text()).toBe(true);
      const quizId = (await added.json()).data._id as string;
      await teacher.goto(`/dashboard/teacher/edit-quiz/${quizId}`);
      await expect(
        teacher.getByRole('region', { name: tr('Question {number}', { number: 1 }), exact: true }),
      ).toBeVisible();
      await look(teacher, 'quiz-editor');

      // --- A student registers with the class's code, signs in ----------------------------------
      const { page: student } = await person();
      const studentAccount = buildStudentRegistration({ name: data.student, classCode: joinCode });
      await student.goto('/auth/student/register');
      await student.getByRole('textbox', { name: wholeLabel(tr('Name')) }).fill(studentAccount.name);
      await student.getByLabel(wholeLabel(tr('Account username'))).fill(studentAccount.rollNumber);
      await student.getByRole('textbox', { name: wholeLabel(tr('Email')) }).fill(studentAccount.email);
      await student.getByLabel(wholeLabel(tr('Class code'))).fill(joinCode);
      await student.getByLabel(wholeLabel(tr('Parent name'))).fill(studentAccount.parentName);
      await student.getByLabel(wholeLabel(tr('Parent email'))).fill(studentAccount.parentEmail);
      await student.getByLabel(wholeLabel(tr('Password'))).fill(studentAccount.password);
      await look(student, 'student-register');
      await student.getByRole('button', { name: tr('Register'), exact: true }).click();
      await expect(student).toHaveURL(/\/auth\/student\/login$/);
      await student.getByLabel(wholeLabel(tr('Username'))).fill(studentAccount.rollNumber);
      await student.getByLabel(wholeLabel(tr('Password'))).fill(studentAccount.password);
      await student.getByRole('button', { name: tr('Log in'), exact: true }).click();
      await expect(student).toHaveURL(/\/dashboard\/student$/);
      await expect(student.getByTestId('study-mode-overlay')).toBeVisible();
      await look(student, 'study-mode-overlay');
      await enterStudyMode(student);
      await look(student, 'student-dashboard');

      // --- The student takes the quiz: every type, answered by its text ------------------------
      const studentMenu = student.getByRole('navigation', { name: tr('Student menu') });
      await studentMenu.getByRole('link', { name: tr('Quiz'), exact: true }).click();
      const take = student
        .getByRole('link', { name: new RegExp(escapeRegExp(data.quizTitle)) })
        .filter({ hasText: tr('Take quiz') });
      await expect(take).toBeVisible();
      await look(student, 'student-quizzes');
      await take.click();
      await student.getByRole('button', { name: tr('Start quiz'), exact: true }).click();
      await expect(student.getByRole('timer')).toBeVisible();
      const answers: Record<string, (page: Page) => Promise<void>> = {
        [data.description]: async () => {},
        [data.single]: (page) => page.getByRole('radio', { name: '4', exact: true }).check(),
        [data.multiple]: async (page) => {
          await page.getByRole('checkbox', { name: '2', exact: true }).check();
          await page.getByRole('checkbox', { name: '4', exact: true }).check();
        },
        [data.trueFalse]: (page) => page.getByRole('radio', { name: tr('True'), exact: true }).check(),
        [data.shortText]: (page) =>
          page.getByRole('textbox', { name: tr('Your answer'), exact: true }).fill(data.shortAnswer),
        [data.numeric]: (page) =>
          page.getByRole('textbox', { name: tr('Your answer (a number)'), exact: true }).fill('3,5'),
        [data.matching]: async (page) => {
          for (const [prompt, match] of data.pairs) {
            await page.getByRole('combobox', { name: prompt, exact: true }).selectOption({ label: match });
          }
        },
        [data.essay]: (page) =>
          page.getByRole('textbox', { name: tr('Your answer'), exact: true }).fill(data.essayAnswer),
      };
      const count = Object.keys(answers).length;
      const seen = new Set<string>();
      for (let index = 0; index < count; index += 1) {
        const text = (await currentQuestion(student)).trim();
        const answer = answers[text];
        expect(answer, `an answer for "${text}"`).toBeDefined();
        seen.add(text);
        await answer!(student);
        // Every type's screen in Arabic; Spanish, the lighter pass, looks at the first and last.
        if (isArabic || index === 0 || index === count - 1) await look(student, `quiz-question-${index + 1}`);
        if (index < count - 1) await student.getByRole('button', { name: tr('Next question'), exact: true }).click();
      }
      expect(seen.size).toBe(count);
      await student.getByRole('button', { name: tr('Submit'), exact: true }).click();
      await expect(student.getByRole('heading', { name: tr('Quiz submitted') })).toBeVisible();
      await expect(student.getByText(tr('Awaiting marking by your teacher'))).toBeVisible();
      await look(student, 'quiz-result-review');

      // --- The teacher: the analytics, then the essay marked ------------------------------------
      await teacher.goto(`/dashboard/teacher/quiz-analytics/${quizId}`);
      await expect(teacher.getByRole('row', { name: new RegExp(escapeRegExp(data.student)) })).toBeVisible();
      // On a phone the attempts are cards: the table's own box does not scroll sideways (issue 32).
      const attemptsTable = teacher.getByRole('region', { name: tr('Attempts table'), exact: true });
      await look(teacher, 'quiz-analytics', testInfo.project.name === 'mobile' ? { fits: attemptsTable } : {});
      await teacher.goto(`/dashboard/teacher/quiz-analytics/${quizId}/marking`);
      const essay = teacher.getByRole('group', { name: new RegExp(escapeRegExp(data.student)) });
      await expect(essay).toContainText(data.essayAnswer);
      await look(teacher, 'marking');
      await essay.getByRole('textbox', { name: new RegExp(`^${escapeRegExp(tr('Points'))}`) }).fill('2');
      await essay.getByRole('button', { name: tr('Save mark'), exact: true }).click();
      await expect(teacher.getByText(tr('No essays await marking'))).toBeVisible();

      // --- The student's review, final now --------------------------------------------------------
      await student.goto(`/dashboard/student/quiz/${quizId}`);
      await enterStudyMode(student);
      await expect(student.getByText(data.essayAnswer)).toBeVisible();
      await expect(student.getByText(tr('Awaiting marking by your teacher'))).toHaveCount(0);
      await look(student, 'quiz-review-marked');

      // --- The roster import: a bad row shown, then a fixed file imported ------------------------
      await teacher.goto(`/dashboard/teacher/classes/${classId}`);
      await teacher.getByRole('button', { name: tr('Import students (CSV)'), exact: true }).click();
      const dialog = teacher.getByRole('dialog');
      await expect(dialog.getByRole('heading', { name: new RegExp(escapeRegExp(data.className)) })).toBeVisible();
      const tag = `imp${randomBytes(3).toString('hex')}`;
      await dialog.getByLabel(wholeLabel(tr('CSV file'))).setInputFiles({
        name: 'class-list.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(classList(tag, 7)),
      });
      await dialog.getByRole('button', { name: tr('Check the list'), exact: true }).click();
      const problems = tr(
        '{rowCount, plural, one {{withProblems} of # row has problems. Fix it in the file, then check again: nothing is imported until every row is right.} other {{withProblems} of # rows have problems. Fix them in the file, then check again: nothing is imported until every row is right.}}',
        { rowCount: 30, withProblems: new Intl.NumberFormat(locale).format(1) },
      );
      await expect(dialog.getByText(problems)).toBeVisible();
      const importAll = tr('{rowCount, plural, one {Import # student} other {Import # students}}', { rowCount: 30 });
      await expect(dialog.getByRole('button', { name: importAll, exact: true })).toBeDisabled();
      const rows = dialog.getByRole('region', { name: tr('Rows of the file'), exact: true });
      await look(teacher, 'import-bad-row', { fits: rows });

      // The fixed file: its first five students (fewer passwords to make than the whole class list's).
      const fixed = `${classList(tag).split('\r\n').slice(0, 6).join('\r\n')}\r\n`;
      await dialog.getByLabel(wholeLabel(tr('CSV file'))).setInputFiles({
        name: 'class-list.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(fixed),
      });
      await dialog.getByRole('button', { name: tr('Check the list'), exact: true }).click();
      await expect(
        dialog.getByText(
          tr('{rowCount, plural, one {The # row can be imported.} other {All # rows can be imported.}}', {
            rowCount: 5,
          }),
        ),
      ).toBeVisible();
      await dialog
        .getByRole('button', {
          name: tr('{rowCount, plural, one {Import # student} other {Import # students}}', { rowCount: 5 }),
          exact: true,
        })
        .click();
      const sheet = dialog.getByRole('region', { name: tr('Credentials sheet'), exact: true });
      await expect(sheet.getByRole('row')).toHaveCount(6, { timeout: patience(60_000) });
      await look(teacher, 'import-credentials', { fits: sheet });
      await dialog.getByRole('button', { name: tr('Done'), exact: true }).click();
      await expect(dialog).toBeHidden();
      await look(teacher, 'class-page-imported');

      // --- The leaderboards and the statistics ----------------------------------------------------
      await teacher
        .getByRole('navigation', { name: tr('Teacher menu') })
        .getByRole('link', { name: tr('LeaderBoard'), exact: true })
        .click();
      await expect(teacher.getByRole('heading', { level: 1, name: tr('Leaderboard') })).toBeVisible();
      await expect(teacher.getByTestId('leaderboard-row')).toHaveCount(1);
      await look(teacher, 'teacher-leaderboard');

      await studentMenu.getByRole('link', { name: tr('LeaderBoard'), exact: true }).click();
      await expect(student.getByRole('heading', { level: 1, name: tr('Class leaderboard') })).toBeVisible();
      await expect(student.getByTestId('leaderboard-row')).toHaveCount(1);
      await look(student, 'student-leaderboard');

      await studentMenu.getByRole('link', { name: tr('Statistics'), exact: true }).click();
      await expect(
        student.getByRole('heading', { level: 1, name: tr("{name}'s Analytics", { name: data.student }) }),
      ).toBeVisible();
      await expect(student.getByTestId('subject-pie')).toBeVisible();
      await look(student, 'statistics');

      // --- A meeting: the room opened through the API, the student at its pre-join screen --------
      const opened = await api.post('/api/meetings', { headers: auth(teacherToken), data: { classId } });
      expect(opened.ok(), await opened.text()).toBe(true);
      const roomId = (await opened.json()).data.roomId as string;
      await studentMenu.getByRole('link', { name: tr('EMeet'), exact: true }).click();
      await expect(student.getByRole('list', { name: tr('Rooms of your classes') }).getByRole('listitem')).toHaveCount(
        1,
      );
      await look(student, 'student-emeet');
      await student.getByLabel(wholeLabel(tr('Room ID'))).fill(roomId);
      await student.getByRole('button', { name: tr('Join'), exact: true }).click();
      await expect(student.getByRole('heading', { name: tr('Ready to join?') })).toBeVisible();
      // The room ID reads as one piece, left to right: never broken at a dash (Arabic once did).
      const shownRoomId = student.locator('bdi', { hasText: roomId });
      await expect(shownRoomId).toHaveAttribute('dir', 'ltr');
      expect(
        await shownRoomId.evaluate((element) => {
          const range = document.createRange();
          range.selectNodeContents(element);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        }),
        'lines the room ID takes',
      ).toBe(1);
      await expect
        .poll(() =>
          student.getByLabel(tr('Your camera preview')).evaluate((video: HTMLVideoElement) => video.videoWidth),
        )
        .toBeGreaterThan(0);
      await look(student, 'meeting-pre-join');

      expect(faults, 'axe on the screens').toEqual([]);
      for (const { errors } of people) expect(errors, 'page errors during the scenario').toEqual([]);
    } finally {
      for (const { context } of people) await context.close();
      await api.dispose();
      await stop();
    }
  });
}
