import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStudentRegistration, buildTeacherRegistration } from '../../testing/factories.ts';
import { classCodeNamed, inviteTeacher } from '../../testing/actors.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

/**
 * Identities of every script (decision 024), through the real HTTP layer: each hard name is
 * registered as a student's roll number and email and as a teacher's email, then signs in as
 * typed, upper-cased, lower-cased, decomposed (NFD) and with spaces around, and in the
 * spellings a person on another keyboard would type; another spelling of it is taken.
 */

let t: TestApp;
/** The class this file's students register into. */
let classCode: string;
const studentRegistration = (overrides: Parameters<typeof buildStudentRegistration>[0] = {}) =>
  buildStudentRegistration({ classCode, ...overrides });

beforeAll(async () => {
  // Every registration here comes from one address: more than the default hourly budget.
  t = await createTestApp({ throttle: { limits: { registrationsPerNetwork: 5_000 } } });
  classCode = await classCodeNamed(t, '10A');
});
afterAll(async () => {
  await t.close();
});

type HardName = {
  /** As registered: the name part of the roll number and of the email's local part. */
  name: string;
  /** The same name as someone else types it. */
  alsoTypedAs: string[];
  /** The email's domain; a Unicode one is also typed in punycode (Chrome's email field sends that). */
  domain?: { typed: string; punycode: string };
  /** A username only: email addresses may not hold joiners (RFC 6531 keeps to letters, digits and marks). */
  isUsernameOnly?: boolean;
};

const HARD_NAMES: [string, HardName][] = [
  [
    'Turkish dotted capital İ',
    {
      name: 'İpek',
      alsoTypedAs: ['ipek', 'IPEK', 'i\u0307pek'],
      domain: { typed: 'bücher.example', punycode: 'xn--bcher-kva.example' },
    },
  ],
  ['Turkish dotless ı', { name: 'Ilgın', alsoTypedAs: ['ILGIN', 'ilgin', 'ılgın'] }],
  ['German ß', { name: 'Straße', alsoTypedAs: ['STRASSE', 'Strasse', 'STRAẞE'] }],
  ['titlecase digraph ǅ', { name: 'ǅemal', alsoTypedAs: ['DŽemal', 'ǄEMAL', 'džemal'] }],
  ['digraph Ǆ alone', { name: 'Ǆ', alsoTypedAs: ['DŽ', 'ǆ', 'dž'] }],
  ['Greek with tonos', { name: 'Ωμέγα', alsoTypedAs: ['ΩΜΈΓΑ', 'ωμέγα'] }],
  ['Greek final sigma', { name: 'Νίκος', alsoTypedAs: ['ΝΊΚΟΣ', 'νίκοσ'] }],
  ['decomposed é (NFD)', { name: 'Re\u0301my', alsoTypedAs: ['Rémy', 'RÉMY'] }],
  ['Cyrillic', { name: 'Пётр', alsoTypedAs: ['ПЁТР', 'пётр', 'ПЕ\u0308ТР'] }],
  ['roman numeral Ⅻ (compatibility: the same as XII)', { name: 'Ⅻ', alsoTypedAs: ['XII', 'xii', 'ⅻ'] }],
  ['full-width letters (compatibility)', { name: 'Ｋｅｎｊｉ', alsoTypedAs: ['Kenji', 'KENJI'] }],
  ['spaces around', { name: '  Ayşe\u00a0 ', alsoTypedAs: ['AYŞE', 'ayşe'] }],
  ['Devanagari with vowel signs', { name: 'विद्या', alsoTypedAs: [] }],
  ['Persian with a zero-width non-joiner', { name: 'نیک\u200Cنام', alsoTypedAs: ['نیکنام'], isUsernameOnly: true }],
];

/** name + a unique tag (+ @domain), with the name's own surrounding spaces kept around the whole. */
function spell(name: string, tag: string, separator: string, domain?: string): string {
  const [, before, core, after] = /^(\s*)(.*?)(\s*)$/su.exec(name)!;
  return `${before}${core}${separator}${tag}${domain === undefined ? '' : `@${domain}`}${after}`;
}

/** How a person may type what was registered: as typed, in capitals, in small letters, decomposed, padded. */
const caseAndFormVariants = (typed: string) => [
  typed,
  typed.toUpperCase(),
  typed.toLowerCase(),
  typed.normalize('NFD'),
  ` ${typed}\t`,
];

const post = (url: string, payload: object) => t.call({ method: 'POST', url, payload });

/** Registers the account, shown as typed (NFC, trimmed): the key is never presented. */
async function registerShownAsTyped<Registration extends { email: string; password: string }>(
  role: 'teacher' | 'student',
  registration: Registration,
  field: 'rollNumber' | 'email',
) {
  const registered = await post(`/api/${role}/register`, registration);
  expect(registered.status, registered.raw).toBe(201);
  const typed = (registration as Registration & { rollNumber?: string })[field]!;
  expect(registered.body.data[field]).toBe(typed.normalize('NFC').trim());
  return registration;
}

/** Every spelling signs in to the role's account (the teacher's by email, the student's by roll number). */
async function expectSignsIn(role: 'teacher' | 'student', spellings: string[], password: string) {
  const field = role === 'teacher' ? 'email' : 'rollNumber';
  for (const typed of spellings) {
    const login = await post(`/api/${role}/login`, { [field]: typed, password });
    expect([typed, login.status, login.raw]).toEqual([typed, 200, expect.any(String)]);
  }
}

/** A new account with any of these spellings in `field` is refused: 409, the field named. */
async function expectTaken(
  role: 'teacher' | 'student',
  field: 'rollNumber' | 'email',
  message: string,
  spellings: string[],
) {
  for (const typed of spellings) {
    const overrides = { [field]: typed };
    const registration =
      role === 'teacher' ? buildTeacherRegistration(await inviteTeacher(t), overrides) : studentRegistration(overrides);
    const response = await post(`/api/${role}/register`, registration);
    expect([typed, response.status, response.body.errors]).toEqual([typed, 409, [{ field, code: 'TAKEN', message }]]);
  }
}

describe.each(HARD_NAMES)('%s', (_, hard) => {
  const tag = randomBytes(3).toString('hex');
  const domain = hard.domain?.typed ?? 'school.example';
  const rollNumber = spell(hard.name, tag, '-');
  const email = spell(hard.name, tag, '.', domain);
  const rollNumbers = [...caseAndFormVariants(rollNumber), ...hard.alsoTypedAs.map((other) => spell(other, tag, '-'))];
  const emails = [
    ...caseAndFormVariants(email),
    ...hard.alsoTypedAs.map((other) => spell(other, tag, '.', domain)),
    ...(hard.domain ? [spell(hard.name, tag, '.', hard.domain.punycode)] : []),
  ];

  it('registers a student, who signs in with the roll number however it is typed', async () => {
    const registration = await registerShownAsTyped('student', studentRegistration({ rollNumber }), 'rollNumber');
    await expectSignsIn('student', rollNumbers, registration.password);
    await expectTaken('student', 'rollNumber', 'This account username is already taken', [
      rollNumbers[1]!,
      rollNumbers.at(-1)!,
    ]);
  });

  it.skipIf(hard.isUsernameOnly)(
    'registers a student with it as email, and no other student with another spelling of it',
    async () => {
      await registerShownAsTyped('student', studentRegistration({ email }), 'email');
      await expectTaken('student', 'email', 'A student with this email already exists', [emails[1]!, emails.at(-1)!]);
    },
  );

  it.skipIf(hard.isUsernameOnly)(
    'registers a teacher, who signs in with the email however it is typed, and no second one with it',
    async () => {
      const registration = await registerShownAsTyped(
        'teacher',
        buildTeacherRegistration(await inviteTeacher(t), { email }),
        'email',
      );
      await expectSignsIn('teacher', emails, registration.password);
      await expectTaken('teacher', 'email', 'A teacher with this email already exists', [emails[1]!, emails.at(-1)!]);
    },
  );
});

describe('identities that only look alike', () => {
  it('keeps a Cyrillic а apart from a Latin a, and ö apart from o', async () => {
    const tag = randomBytes(3).toString('hex');
    for (const rollNumber of [`m\u0430ria-${tag}`, `maria-${tag}`, `jöran-${tag}`, `joran-${tag}`]) {
      const response = await post('/api/student/register', studentRegistration({ rollNumber }));
      expect([rollNumber, response.status]).toEqual([rollNumber, 201]);
    }
  });

  it('refuses an email or a class code made only of invisible characters', async () => {
    const response = await post(
      '/api/student/register',
      studentRegistration({ email: '\u200b@school.example', classCode: '\u200b\u2060' }),
    );
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'email', code: 'INVALID_EMAIL', message: 'Must be a valid email address' },
        {
          field: 'classCode',
          code: 'CLASS_CODE_FORM',
          message: 'Not shaped like a class code (8 letters and digits)',
        },
      ]),
    );
  });
});
