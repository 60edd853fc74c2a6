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
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { PublicTopNav } from '../../components/layout/public-top-nav.tsx';
import { tabClassName, tabIndexAfterKey } from './feature-tabs.ts';
import { APP_VERSION } from '../../lib/app-version.ts';
import { DEMO_CREDENTIALS, type DemoCredential } from './demo-credentials.ts';
import { SCHOOL_SETUP_MARKER } from '../school/school-setup-status.ts';
import {
  DEMO_CREDENTIAL_MARKER,
  DEMO_SCHOOL_MARKER,
  readLandingSchoolStatus,
  type LandingSchoolStatus,
} from './landing-school-status.ts';

type Feature = { icon: LucideIcon; title: string; text: string };
type Audience = 'teachers' | 'students';

const TABS: { id: Audience; label: string }[] = [
  { id: 'teachers', label: 'For Teachers' },
  { id: 'students', label: 'For Students' },
];

const FEATURES: Record<Audience, Feature[]> = {
  teachers: [
    {
      icon: ClipboardList,
      title: 'Timed quizzes',
      text: 'Write questions in the quiz editor, pick a background and preview the quiz exactly as students will see it.',
    },
    {
      icon: ChartColumn,
      title: 'Quiz analytics',
      text: 'See every attempt on each of your quizzes and spot the questions your class found hardest.',
    },
    {
      icon: FileUp,
      title: 'Shared resources',
      text: 'Upload notes, worksheets and links once and share them with a whole class.',
    },
    {
      icon: Users,
      title: 'Student management',
      text: 'Add student accounts and keep your class list tidy in one place.',
    },
    {
      icon: Trophy,
      title: 'Leaderboard of all classes',
      text: 'Compare how every class is doing on a single board.',
    },
    {
      icon: PenTool,
      title: 'Whiteboard',
      text: 'Sketch diagrams and work through problems on a shared drawing canvas.',
    },
    {
      icon: Video,
      title: 'Video rooms',
      text: 'Open a room, share its ID and teach your class face to face from anywhere.',
    },
  ],
  students: [
    {
      icon: Timer,
      title: 'Timed quizzes',
      text: 'Take the quizzes of your class against the clock, then review every answer you gave.',
    },
    {
      icon: Library,
      title: 'Resources library',
      text: 'Browse what your teachers shared, filter it down and star the files you want to keep close.',
    },
    {
      icon: ChartLine,
      title: 'Personal statistics',
      text: 'Follow your scores over time and see where to focus next.',
    },
    {
      icon: Trophy,
      title: 'Class leaderboard',
      text: 'See where you stand in your class and celebrate every step up.',
    },
    {
      icon: PenTool,
      title: 'Whiteboard and study mode',
      text: 'Work problems out on the canvas and settle into a calm, focused study space.',
    },
    {
      icon: Video,
      title: 'Video rooms',
      text: 'Join your class and teachers in a video room with a single room ID.',
    },
  ],
};

const STEPS: Feature[] = [
  {
    icon: UserPlus,
    title: 'Open your school',
    text: 'On the first visit, your administrator sets up the school and invites its teachers. Students join with their class code or sign in with the account their school gives them.',
  },
  {
    icon: School,
    title: 'Set up or join your class',
    text: 'Teachers add students, publish quizzes and share resources. Students find everything for their class waiting on their dashboard.',
  },
  {
    icon: Sparkles,
    title: 'Learn together',
    text: 'Take quizzes, review answers, climb the leaderboard and meet on the whiteboard or in a video room.',
  },
];

const primaryAction =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-brand-600 px-6 py-3 text-base font-semibold text-white shadow-sm transition-colors hover:bg-brand-700';
const secondaryAction =
  'inline-flex items-center justify-center gap-2 rounded-lg border border-line-strong bg-surface px-6 py-3 text-base font-semibold text-fg shadow-sm transition-colors hover:border-brand-500 hover:text-brand-700';
const footerLink = 'font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-800';

function FeatureCard({ feature }: { feature: Feature }) {
  const Icon = feature.icon;
  return (
    <li className="w-full rounded-2xl border border-line bg-surface p-6 shadow-sm transition-shadow hover:shadow-md sm:w-[calc((100%_-_1.25rem)/2)] lg:w-[calc((100%_-_2.5rem)/3)]">
      <span className="flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <h3 className="mt-4 text-lg font-semibold text-fg">{feature.title}</h3>
      <p className="mt-1.5 text-muted">{feature.text}</p>
    </li>
  );
}

/** WAI-ARIA tabs: Left/Right/Home/End switch tabs; only the selected tab is in the tab order. */
function FeatureTabs() {
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
    const target = tabIndexAfterKey(event.key, current, TABS.length);
    if (target === undefined) return;
    event.preventDefault();
    selectTab(target);
  };

  return (
    <div>
      <div
        role="tablist"
        aria-label="Features by role"
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
              {tab.label}
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
              <FeatureCard key={feature.title} feature={feature} />
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
      <p className="font-semibold text-fg">This StudyHall has no school yet.</p>
      <p className="mt-1 text-muted">Name your school and create the administrator&apos;s account to begin.</p>
      <Link to="/setup" className={`mt-4 w-full sm:w-auto ${primaryAction}`}>
        Set up your school
        <ArrowRight className="size-5" aria-hidden="true" />
      </Link>
    </div>
  );
}

function Hero({ isSetUpNeeded }: { isSetUpNeeded: boolean }) {
  return (
    <section aria-labelledby="landing-title" className="bg-gradient-to-b from-brand-50 to-white">
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-14 sm:px-6 md:grid-cols-2 md:py-20">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full bg-surface px-3 py-1 text-sm font-semibold text-fg ring-1 ring-line">
            <ShieldCheck className="size-4 text-teal-600" aria-hidden="true" />
            Self-hosted learning platform
          </p>
          <h1
            id="landing-title"
            className="mt-5 text-4xl font-extrabold tracking-tight text-balance text-fg sm:text-5xl"
          >
            One hall where teachers teach and <span className="text-brand-700">every student moves forward</span>.
          </h1>
          <p className="mt-5 max-w-xl text-lg text-pretty text-muted">
            Timed quizzes, shared resources, leaderboards, a whiteboard and video rooms: everything a class needs, in
            one place, on a server your school runs.
          </p>
          <SchoolSetupCall isNeeded={isSetUpNeeded} />
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link to="/auth" className={primaryAction}>
              Get Started
              <ArrowRight className="size-5" aria-hidden="true" />
            </Link>
            <Link to="/auth" className={secondaryAction}>
              Log in
            </Link>
          </div>
        </div>
        <img
          src="/images/landing-hero.svg"
          alt="A teacher and students around a StudyHall dashboard showing a quiz, a progress chart and a video call"
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
        Built for both sides of the classroom
      </h2>
      <p className="mx-auto mt-3 max-w-2xl text-center text-lg text-muted">
        Teachers get the tools to run a class; students get a calm place to learn and see their progress.
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
  const credentialClass = 'rounded bg-surface-muted px-1.5 py-0.5 font-mono text-sm text-fg';
  const credential = (name: DemoCredential) => (
    <code className={credentialClass} {...{ [DEMO_CREDENTIAL_MARKER]: name }}>
      {hasDemo ? DEMO_CREDENTIALS[name] : ''}
    </code>
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
        Try the demo
      </h2>
      <p className="mt-3 text-center text-lg text-muted">
        This server holds a demo school — two teachers, two classes, quizzes and results — whose passwords are public.
        Sign in as:
      </p>
      <dl className="mt-6 grid gap-4 sm:grid-cols-2">
        <div className="rounded-2xl border border-line bg-surface p-5 shadow-sm">
          <dt className="font-semibold text-fg">Teacher</dt>
          <dd className="mt-2 flex flex-col gap-1 text-muted">
            <span>Email {credential('teacher-email')}</span>
            <span>Password {credential('password')}</span>
            <Link to="/auth/teacher/login" className="mt-2 font-semibold text-brand-700 underline underline-offset-4">
              Teacher login
            </Link>
          </dd>
        </div>
        <div className="rounded-2xl border border-line bg-surface p-5 shadow-sm">
          <dt className="font-semibold text-fg">Student</dt>
          <dd className="mt-2 flex flex-col gap-1 text-muted">
            <span>Username {credential('student-username')}</span>
            <span>Password {credential('password')}</span>
            <Link to="/auth/student/login" className="mt-2 font-semibold text-brand-700 underline underline-offset-4">
              Student login
            </Link>
          </dd>
        </div>
      </dl>
    </section>
  );
}

function HowItWorks() {
  return (
    <section aria-labelledby="how-title" className="border-y border-line bg-surface-sunken">
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 md:py-20">
        <h2 id="how-title" className="text-center text-3xl font-bold tracking-tight text-fg sm:text-4xl">
          How it works
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-center text-lg text-muted">
          From sign-up to the first quiz in three steps.
        </p>
        <ol className="mt-10 grid gap-5 md:grid-cols-3">
          {STEPS.map((step, index) => {
            const Icon = step.icon;
            return (
              <li key={step.title} className="rounded-2xl border border-line bg-surface p-6 shadow-sm">
                <div className="flex items-center gap-3">
                  <span
                    className="flex size-10 items-center justify-center rounded-full bg-brand-600 text-lg font-bold text-white"
                    aria-hidden="true"
                  >
                    {index + 1}
                  </span>
                  <Icon className="size-6 text-teal-600" aria-hidden="true" />
                </div>
                <h3 className="mt-4 text-lg font-semibold text-fg">
                  <span className="sr-only">Step {index + 1}: </span>
                  {step.title}
                </h3>
                <p className="mt-1.5 text-muted">{step.text}</p>
              </li>
            );
          })}
        </ol>
        <div className="mt-10 flex justify-center">
          <Link to="/auth" className={primaryAction}>
            Get Started
            <ArrowRight className="size-5" aria-hidden="true" />
          </Link>
        </div>
      </div>
    </section>
  );
}

/** The public landing page at / (SPEC §1): its own header, no dashboard navigation. */
export function Component() {
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
            Self-hosted, no third-party services.
          </p>
          <p>
            StudyHall <span data-testid="app-version">v{APP_VERSION}</span>
          </p>
          <ul className="flex flex-wrap items-center justify-center gap-x-6 gap-y-2">
            <li {...{ [DEMO_SCHOOL_MARKER]: '' }} hidden={!hasDemo}>
              <a href="#demo" className={footerLink}>
                Try the demo
              </a>
            </li>
            <li>
              <a
                href="https://github.com/studyhall/studyhall"
                rel="noreferrer"
                className={`inline-flex items-center gap-1.5 ${footerLink}`}
              >
                <Code className="size-4" aria-hidden="true" />
                Source code
              </a>
            </li>
          </ul>
        </div>
      </footer>
    </div>
  );
}
