import {
  ArrowRight,
  ChartColumn,
  ChartLine,
  ClipboardList,
  Code,
  FileUp,
  Library,
  PenTool,
  School,
  ShieldCheck,
  Sparkles,
  Timer,
  Trophy,
  UserPlus,
  Users,
  Video,
  type LucideIcon,
} from 'lucide-react';
import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { I18nProvider } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link, type LoaderFunctionArgs } from 'react-router';
import { isLocale, LANDING_LOCALE_PARAM, landingPathOf, LOCALES, type Locale } from '#shared/locales';
import { PublicTopNav } from '../../components/layout/public-top-nav.tsx';
import { directionAt, tabClassName, tabIndexAfterKey } from './feature-tabs.ts';
import { APP_VERSION } from '../../lib/app-version.ts';
import { formatNumber } from '../../lib/format.ts';
import { activateLocale, browserLocale } from '../../lib/i18n.ts';
import { LOCALE_CHOICE_MARKER, rememberLocaleOf } from './landing-language.ts';
import { DEMO_CREDENTIALS, type DemoCredential } from './demo-credentials.ts';
import { SCHOOL_SETUP_MARKER } from '../school/school-setup-status.ts';
import {
  DEMO_CREDENTIAL_MARKER,
  DEMO_SCHOOL_MARKER,
  readLandingSchoolStatus,
  type LandingSchoolStatus,
} from './landing-school-status.ts';

// Module-level texts are descriptors (msg), worded at render in the active locale.
type Feature = { icon: LucideIcon; title: MessageDescriptor; text: MessageDescriptor };
type Audience = 'teachers' | 'students';

const TABS: { id: Audience; label: MessageDescriptor }[] = [
  { id: 'teachers', label: msg`For Teachers` },
  { id: 'students', label: msg`For Students` },
];

const FEATURES: Record<Audience, Feature[]> = {
  teachers: [
    {
      icon: ClipboardList,
      title: msg`Timed quizzes`,
      text: msg`Write questions in the quiz editor, pick a background and preview the quiz exactly as students will see it.`,
    },
    {
      icon: ChartColumn,
      title: msg`Quiz analytics`,
      text: msg`See every attempt on each of your quizzes and spot the questions your class found hardest.`,
    },
    {
      icon: FileUp,
      title: msg`Shared resources`,
      text: msg`Upload notes, worksheets and links once and share them with a whole class.`,
    },
    {
      icon: Users,
      title: msg`Student management`,
      text: msg`Add student accounts and keep your class list tidy in one place.`,
    },
    {
      icon: Trophy,
      title: msg`Leaderboard of all classes`,
      text: msg`Compare how every class is doing on a single board.`,
    },
    {
      icon: PenTool,
      title: msg`Whiteboard`,
      text: msg`Sketch diagrams and work through problems on a shared drawing canvas.`,
    },
    {
      icon: Video,
      title: msg`Video rooms`,
      text: msg`Open a room, share its ID and teach your class face to face from anywhere.`,
    },
  ],
  students: [
    {
      icon: Timer,
      title: msg`Timed quizzes`,
      text: msg`Take the quizzes of your class against the clock, then review every answer you gave.`,
    },
    {
      icon: Library,
      title: msg`Resources library`,
      text: msg`Browse what your teachers shared, filter it down and star the files you want to keep close.`,
    },
    {
      icon: ChartLine,
      title: msg`Personal statistics`,
      text: msg`Follow your scores over time and see where to focus next.`,
    },
    {
      icon: Trophy,
      title: msg`Class leaderboard`,
      text: msg`See where you stand in your class and celebrate every step up.`,
    },
    {
      icon: PenTool,
      title: msg`Whiteboard and study mode`,
      text: msg`Work problems out on the canvas and settle into a calm, focused study space.`,
    },
    {
      icon: Video,
      title: msg`Video rooms`,
      text: msg`Join your class and teachers in a video room with a single room ID.`,
    },
  ],
};

const STEPS: Feature[] = [
  {
    icon: UserPlus,
    title: msg`Open your school`,
    text: msg`On the first visit, your administrator sets up the school and invites its teachers. Students join with their class code or sign in with the account their school gives them.`,
  },
  {
    icon: School,
    title: msg`Set up or join your class`,
    text: msg`Teachers add students, publish quizzes and share resources. Students find everything for their class waiting on their dashboard.`,
  },
  {
    icon: Sparkles,
    title: msg`Learn together`,
    text: msg`Take quizzes, review answers, climb the leaderboard and meet on the whiteboard or in a video room.`,
  },
];

const primaryAction =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-brand-600 px-6 py-3 text-base font-semibold text-white shadow-sm transition-colors hover:bg-brand-700';
const secondaryAction =
  'inline-flex items-center justify-center gap-2 rounded-lg border border-line-strong bg-surface px-6 py-3 text-base font-semibold text-fg shadow-sm transition-colors hover:border-brand-500 hover:text-brand-700';
const footerLink = 'font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-800';

function FeatureCard({ feature }: { feature: Feature }) {
  const { t } = useLingui();
  const Icon = feature.icon;
  return (
    <li className="w-full rounded-2xl border border-line bg-surface p-6 shadow-sm transition-shadow hover:shadow-md sm:w-[calc((100%_-_1.25rem)/2)] lg:w-[calc((100%_-_2.5rem)/3)]">
      <span className="flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <h3 className="mt-4 text-lg font-semibold text-fg">{t(feature.title)}</h3>
      <p className="mt-1.5 text-muted">{t(feature.text)}</p>
    </li>
  );
}

/** WAI-ARIA tabs: Left/Right/Home/End switch tabs; only the selected tab is in the tab order. */
function FeatureTabs() {
  const { t } = useLingui();
  const baseId = useId();
  const [active, setActive] = useState<Audience>('teachers');
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const tabId = (audience: Audience) => `${baseId}-tab-${audience}`;
  const panelId = (audience: Audience) => `${baseId}-panel-${audience}`;

  const selectTab = (index: number) => {
    const tab = TABS[index];
    if (!tab) return;
    setActive(tab.id);
    tabRefs.current[index]?.focus();
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const current = TABS.findIndex((tab) => tab.id === active);
    const target = tabIndexAfterKey(event.key, current, TABS.length, directionAt(event.currentTarget));
    if (target === undefined) return;
    event.preventDefault();
    selectTab(target);
  };

  return (
    <div>
      <div
        role="tablist"
        aria-label={t`Features by role`}
        className="mx-auto flex w-fit gap-1 rounded-xl border border-line bg-surface-muted p-1"
      >
        {TABS.map((tab, index) => {
          const isSelected = tab.id === active;
          return (
            <button
              key={tab.id}
              ref={(element) => {
                tabRefs.current[index] = element;
              }}
              type="button"
              role="tab"
              id={tabId(tab.id)}
              aria-selected={isSelected}
              aria-controls={panelId(tab.id)}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => setActive(tab.id)}
              onKeyDown={handleKeyDown}
              className={tabClassName(isSelected)}
            >
              {t(tab.label)}
            </button>
          );
        })}
      </div>

      {TABS.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={panelId(tab.id)}
          aria-labelledby={tabId(tab.id)}
          hidden={tab.id !== active}
          tabIndex={0}
          className="mt-10 rounded-2xl"
        >
          {/* A centred wrap rather than a grid, so a last short row (7 teacher cards) sits in the middle. */}
          <ul className="flex flex-wrap justify-center gap-5">
            {FEATURES[tab.id].map((feature) => (
              <FeatureCard key={feature.title.id} feature={feature} />
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}

/**
 * The server's answer the page depends on: nothing known in the prerendered page (no set-up
 * call, no demo); landing-entry.ts there, and this effect in the app, show what it says.
 */
function useLandingSchoolStatus(): LandingSchoolStatus {
  const [status, setStatus] = useState<LandingSchoolStatus>({ isSetUpNeeded: false, hasDemo: false });
  useEffect(() => {
    let isCurrent = true;
    void readLandingSchoolStatus().then((read) => isCurrent && setStatus(read));
    return () => {
      isCurrent = false;
    };
  }, []);
  return status;
}

/** The first run's main action (issue 19): shown once the server says it has no school. */
function SchoolSetupCall({ isNeeded }: { isNeeded: boolean }) {
  return (
    <div
      {...{ [SCHOOL_SETUP_MARKER]: '' }}
      hidden={!isNeeded}
      className="mt-8 rounded-2xl border border-brand-500 bg-surface p-5 shadow-sm"
    >
      <p className="font-semibold text-fg">
        <Trans>This StudyHall has no school yet.</Trans>
      </p>
      <p className="mt-1 text-muted">
        <Trans>Name your school and create the administrator&apos;s account to begin.</Trans>
      </p>
      <Link to="/setup" className={`mt-4 w-full sm:w-auto ${primaryAction}`}>
        <Trans>Set up your school</Trans>
        <ArrowRight className="size-5 rtl:-scale-x-100" aria-hidden="true" />
      </Link>
    </div>
  );
}

function Hero({ isSetUpNeeded }: { isSetUpNeeded: boolean }) {
  const { t } = useLingui();
  return (
    <section aria-labelledby="landing-title" className="bg-gradient-to-b from-brand-50 to-white">
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-14 sm:px-6 md:grid-cols-2 md:py-20">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full bg-surface px-3 py-1 text-sm font-semibold text-fg ring-1 ring-line">
            <ShieldCheck className="size-4 text-teal-600" aria-hidden="true" />
            <Trans>Self-hosted learning platform</Trans>
          </p>
          <h1
            id="landing-title"
            className="mt-5 text-4xl font-extrabold tracking-tight text-balance text-fg sm:text-5xl"
          >
            <Trans>
              One hall where teachers teach and <span className="text-brand-700">every student moves forward</span>.
            </Trans>
          </h1>
          <p className="mt-5 max-w-xl text-lg text-pretty text-muted">
            <Trans>
              Timed quizzes, shared resources, leaderboards, a whiteboard and video rooms: everything a class needs, in
              one place, on a server your school runs.
            </Trans>
          </p>
          <SchoolSetupCall isNeeded={isSetUpNeeded} />
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link to="/auth" className={primaryAction}>
              <Trans>Get Started</Trans>
              <ArrowRight className="size-5 rtl:-scale-x-100" aria-hidden="true" />
            </Link>
            <Link to="/auth" className={secondaryAction}>
              <Trans>Log in</Trans>
            </Link>
          </div>
        </div>
        <img
          src="/images/landing-hero.svg"
          alt={t`A teacher and students around a StudyHall dashboard showing a quiz, a progress chart and a video call`}
          width={640}
          height={420}
          className="mx-auto h-auto w-full max-w-xl"
        />
      </div>
    </section>
  );
}

function Features() {
  return (
    <section aria-labelledby="features-title" className="mx-auto max-w-6xl px-4 py-16 sm:px-6 md:py-20">
      <h2 id="features-title" className="text-center text-3xl font-bold tracking-tight text-fg sm:text-4xl">
        <Trans>Built for both sides of the classroom</Trans>
      </h2>
      <p className="mx-auto mt-3 max-w-2xl text-center text-lg text-muted">
        <Trans>Teachers get the tools to run a class; students get a calm place to learn and see their progress.</Trans>
      </p>
      <div className="mt-10">
        <FeatureTabs />
      </div>
    </section>
  );
}

/**
 * The demo's sign-ins, only where the demo school is (decision 050): hidden, its credentials
 * empty, until the server says so (landing-entry.ts fills them in the prerendered page).
 */
function TryTheDemo({ hasDemo }: { hasDemo: boolean }) {
  const { t } = useLingui();
  const credentialClass = 'rounded bg-surface-muted px-1.5 py-0.5 font-mono text-sm text-fg';
  // <bdi>: an email or a password stays whole, left to right, inside an Arabic line.
  const credential = (name: DemoCredential) => (
    <bdi>
      <code className={credentialClass} {...{ [DEMO_CREDENTIAL_MARKER]: name }}>
        {hasDemo ? DEMO_CREDENTIALS[name] : ''}
      </code>
    </bdi>
  );
  return (
    <section
      id="demo"
      aria-labelledby="demo-title"
      {...{ [DEMO_SCHOOL_MARKER]: '' }}
      hidden={!hasDemo}
      className="mx-auto max-w-3xl scroll-mt-20 px-4 py-16 sm:px-6"
    >
      <h2 id="demo-title" className="text-center text-3xl font-bold tracking-tight text-fg">
        <Trans>Try the demo</Trans>
      </h2>
      <p className="mt-3 text-center text-lg text-muted">
        <Trans>
          This server holds a demo school — two teachers, two classes, quizzes and results — whose passwords are public.
          Sign in as:
        </Trans>
      </p>
      <dl className="mt-6 grid gap-4 sm:grid-cols-2">
        <div className="rounded-2xl border border-line bg-surface p-5 shadow-sm">
          <dt className="font-semibold text-fg">
            <Trans>Teacher</Trans>
          </dt>
          <dd className="mt-2 flex flex-col gap-1 text-muted">
            <span>
              {t`Email`} {credential('teacher-email')}
            </span>
            <span>
              {t`Password`} {credential('password')}
            </span>
            <Link to="/auth/teacher/login" className="mt-2 font-semibold text-brand-700 underline underline-offset-4">
              <Trans>Teacher login</Trans>
            </Link>
          </dd>
        </div>
        <div className="rounded-2xl border border-line bg-surface p-5 shadow-sm">
          <dt className="font-semibold text-fg">
            <Trans>Student</Trans>
          </dt>
          <dd className="mt-2 flex flex-col gap-1 text-muted">
            <span>
              {t`Username`} {credential('student-username')}
            </span>
            <span>
              {t`Password`} {credential('password')}
            </span>
            <Link to="/auth/student/login" className="mt-2 font-semibold text-brand-700 underline underline-offset-4">
              <Trans>Student login</Trans>
            </Link>
          </dd>
        </div>
      </dl>
    </section>
  );
}

function HowItWorks() {
  const { t } = useLingui();
  return (
    <section aria-labelledby="how-title" className="border-y border-line bg-surface-sunken">
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 md:py-20">
        <h2 id="how-title" className="text-center text-3xl font-bold tracking-tight text-fg sm:text-4xl">
          <Trans>How it works</Trans>
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-center text-lg text-muted">
          <Trans>From sign-up to the first quiz in three steps.</Trans>
        </p>
        <ol className="mt-10 grid gap-5 md:grid-cols-3">
          {STEPS.map((step, index) => {
            const Icon = step.icon;
            const stepNumber = formatNumber(index + 1);
            return (
              <li key={step.title.id} className="rounded-2xl border border-line bg-surface p-6 shadow-sm">
                <div className="flex items-center gap-3">
                  <span
                    className="flex size-10 items-center justify-center rounded-full bg-brand-600 text-lg font-bold text-white"
                    aria-hidden="true"
                  >
                    {stepNumber}
                  </span>
                  <Icon className="size-6 text-teal-600" aria-hidden="true" />
                </div>
                <h3 className="mt-4 text-lg font-semibold text-fg">
                  <span className="sr-only">{t`Step ${stepNumber}:`} </span>
                  {t(step.title)}
                </h3>
                <p className="mt-1.5 text-muted">{t(step.text)}</p>
              </li>
            );
          })}
        </ol>
        <div className="mt-10 flex justify-center">
          <Link to="/auth" className={primaryAction}>
            <Trans>Get Started</Trans>
            <ArrowRight className="size-5 rtl:-scale-x-100" aria-hidden="true" />
          </Link>
        </div>
      </div>
    </section>
  );
}

/**
 * The landing page's languages (issue 32), each named in itself: links to that language's page
 * (`/?lang=es`, which works without script, and is what the hreflang alternates name), a click on
 * which also keeps the choice in the cookie (landing-entry.ts on the prerendered page).
 */
function LanguageLinks() {
  const { t, i18n: active } = useLingui();
  return (
    <nav aria-label={t`Language`}>
      <ul className="flex flex-wrap items-center justify-center gap-x-4 gap-y-2">
        {(Object.keys(LOCALES) as Locale[]).map((locale) => (
          <li key={locale}>
            <a
              href={landingPathOf(locale)}
              hrefLang={locale}
              lang={locale}
              {...{ [LOCALE_CHOICE_MARKER]: locale }}
              aria-current={locale === active.locale ? 'true' : undefined}
              onClick={(event) => rememberLocaleOf(event.currentTarget)}
              className={
                locale === active.locale ? 'font-semibold text-fg' : 'text-brand-700 underline underline-offset-4'
              }
            >
              {LOCALES[locale].name}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The public landing page at / (SPEC §1): its own header, no dashboard navigation. Rendered in
 * the active locale: prerendered once per language at build time (render-landing.tsx), and in the
 * app under the I18nProvider of Component below.
 */
export function LandingPage() {
  const { isSetUpNeeded, hasDemo } = useLandingSchoolStatus();
  return (
    <div className="flex min-h-screen flex-col overflow-x-clip bg-surface">
      <PublicTopNav />

      <main id="main" className="flex-1">
        <Hero isSetUpNeeded={isSetUpNeeded} />
        <Features />
        <HowItWorks />
        <TryTheDemo hasDemo={hasDemo} />
      </main>

      <footer className="bg-surface">
        <div className="mx-auto flex max-w-6xl flex-col items-center gap-4 px-4 py-8 text-sm text-muted sm:flex-row sm:justify-between sm:px-6">
          <p className="flex items-center gap-2">
            <ShieldCheck className="size-4 text-teal-600" aria-hidden="true" />
            <Trans>Self-hosted, no third-party services.</Trans>
          </p>
          <p>
            StudyHall <span data-testid="app-version">v{APP_VERSION}</span>
          </p>
          <LanguageLinks />
          <ul className="flex flex-wrap items-center justify-center gap-x-6 gap-y-2">
            <li {...{ [DEMO_SCHOOL_MARKER]: '' }} hidden={!hasDemo}>
              <a href="#demo" className={footerLink}>
                <Trans>Try the demo</Trans>
              </a>
            </li>
            <li>
              <a
                href="https://github.com/studyhall/studyhall"
                rel="noreferrer"
                className={`inline-flex items-center gap-1.5 ${footerLink}`}
              >
                <Code className="size-4" aria-hidden="true" />
                <Trans>Source code</Trans>
              </a>
            </li>
          </ul>
        </div>
      </footer>
    </div>
  );
}

/**
 * The app's landing route (client-side navigation to /, or / itself where no prerendered page is
 * served, as in `npm run dev`): the visitor's locale active before it renders, as the layout of
 * the other screens does (app-providers.tsx), `?lang=` first, as the server reads it for /.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const asked = new URL(request.url).searchParams.get(LANDING_LOCALE_PARAM);
  await activateLocale(isLocale(asked) ? asked : browserLocale());
  return null;
}

export function Component() {
  return (
    <I18nProvider i18n={i18n}>
      <LandingPage />
    </I18nProvider>
  );
}
