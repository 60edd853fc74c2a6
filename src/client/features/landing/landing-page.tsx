import {
  BarChart3,
  BookOpen,
  ClipboardCheck,
  ClipboardList,
  Focus,
  FolderOpen,
  PenTool,
  Star,
  Trophy,
  UserPlus,
  Users,
  Video,
  type LucideIcon,
} from 'lucide-react';
import { useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';
import { BrandLink } from '../../components/ui/brand-link.tsx';

type Feature = { icon: LucideIcon; title: string; text: string };
type Audience = 'teachers' | 'students';

const FEATURES: Record<Audience, Feature[]> = {
  teachers: [
    {
      icon: ClipboardList,
      title: 'Timed quizzes',
      text: 'Build a quiz, preview it as a student would, publish it to a class with a deadline.',
    },
    {
      icon: BarChart3,
      title: 'Quiz analytics',
      text: 'Every attempt, every answer: see at a glance which questions a class found hard.',
    },
    {
      icon: FolderOpen,
      title: 'Shared resources',
      text: 'Upload notes, worksheets and videos for a class, tagged and searchable.',
    },
    {
      icon: Users,
      title: 'Student accounts',
      text: 'Add students to your school and find any of them by class, name or roll number.',
    },
    { icon: Trophy, title: 'Leaderboards', text: 'Follow every class on one board, sorted by average score.' },
    {
      icon: PenTool,
      title: 'Whiteboard',
      text: 'Sketch an idea in class on a fast canvas with undo, redo and export.',
    },
    {
      icon: Video,
      title: 'Video rooms',
      text: 'Meet your class face to face in rooms hosted by your own school server.',
    },
  ],
  students: [
    {
      icon: ClipboardCheck,
      title: 'Quizzes with a timer',
      text: 'Take the quizzes of your class, get your score at once, then review every answer.',
    },
    {
      icon: Star,
      title: 'Resources library',
      text: 'Find what your teachers shared, filter by subject and type, star what you need.',
    },
    {
      icon: BarChart3,
      title: 'Your statistics',
      text: 'Average score, accuracy and how you do in each subject, in one chart.',
    },
    { icon: Trophy, title: 'Class leaderboard', text: 'See where you stand in your class and what to aim for next.' },
    {
      icon: Focus,
      title: 'Study mode',
      text: 'A distraction-free full-screen space with gentle reminders to take breaks.',
    },
    { icon: Video, title: 'Whiteboard and video rooms', text: 'Draw, explain and study together with your class.' },
  ],
};

const TABS: { id: Audience; label: string }[] = [
  { id: 'teachers', label: 'For Teachers' },
  { id: 'students', label: 'For Students' },
];

const STEPS = [
  {
    icon: UserPlus,
    title: 'Create your account',
    text: 'Teachers register with their school email; students log in with their roll number.',
  },
  {
    icon: BookOpen,
    title: 'Set up or join your class',
    text: 'Teachers add students and share quizzes and resources with a class.',
  },
  {
    icon: Trophy,
    title: 'Learn together',
    text: 'Take quizzes, follow progress on the leaderboards and meet in video rooms.',
  },
];

/** WAI-ARIA tabs: arrows, Home and End move between tabs; only the active tab is in the tab order. */
function FeatureTabs() {
  const [active, setActive] = useState<Audience>('teachers');
  const tabRefs = useRef<Record<Audience, HTMLButtonElement | null>>({ teachers: null, students: null });

  const handleKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = TABS.findIndex((tab) => tab.id === active);
    const nextIndex = {
      ArrowRight: (index + 1) % TABS.length,
      ArrowLeft: (index - 1 + TABS.length) % TABS.length,
      Home: 0,
      End: TABS.length - 1,
    }[event.key];
    if (nextIndex === undefined) return;
    event.preventDefault();
    const next = TABS[nextIndex]!.id;
    setActive(next);
    tabRefs.current[next]?.focus();
  };

  return (
    <div>
      <div role="tablist" aria-label="Features" className="mx-auto flex w-fit gap-1 rounded-xl bg-slate-200/70 p-1">
        {TABS.map((tab) => (
          <button
            key={tab.id}
            ref={(element) => {
              tabRefs.current[tab.id] = element;
            }}
            type="button"
            role="tab"
            id={`tab-${tab.id}`}
            aria-selected={active === tab.id}
            aria-controls={`panel-${tab.id}`}
            tabIndex={active === tab.id ? 0 : -1}
            onClick={() => setActive(tab.id)}
            onKeyDown={handleKeyDown}
            className={`rounded-lg px-4 py-2 text-sm font-semibold transition-colors sm:px-6 ${
              active === tab.id ? 'bg-white text-brand-700 shadow-sm' : 'text-slate-700 hover:text-slate-900'
            }`}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {TABS.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`panel-${tab.id}`}
          aria-labelledby={`tab-${tab.id}`}
          hidden={active !== tab.id}
          tabIndex={0}
          className="mt-8 rounded-xl"
        >
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES[tab.id].map((feature) => (
              <li key={feature.title} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
                <feature.icon className="size-8 rounded-lg bg-brand-50 p-1.5 text-brand-700" aria-hidden="true" />
                <h3 className="mt-3 font-semibold text-slate-900">{feature.title}</h3>
                <p className="mt-1 text-sm text-slate-700">{feature.text}</p>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}

/** The public landing page at / (SPEC §1). */
export function Component() {
  return (
    <div className="flex min-h-screen flex-col bg-white">
      <header className="border-b border-slate-200">
        <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4">
          <BrandLink />
          <Link to="/auth" className="rounded-md px-3 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50">
            Login
          </Link>
        </nav>
      </header>

      <main id="main" className="flex-1">
        <section className="bg-gradient-to-b from-brand-50 to-white">
          <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-12 md:grid-cols-2 md:py-20">
            <div>
              <h1 className="text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
                Teach, learn and grow in one <span className="text-brand-700">study hall</span>.
              </h1>
              <p className="mt-5 text-lg text-slate-700">
                Timed quizzes, shared resources, progress you can see and video rooms, on a server your school owns. No
                third-party services, no tracking.
              </p>
              <div className="mt-8 flex flex-wrap gap-3">
                <Link to="/auth" className={buttonClasses('primary', 'px-6 py-3 text-base')}>
                  Get Started
                </Link>
                <Link to="/auth" className={buttonClasses('secondary', 'px-6 py-3 text-base')}>
                  Log in
                </Link>
              </div>
            </div>
            <img
              src="/images/landing-hero.svg"
              alt="A StudyHall dashboard with a quiz, a progress chart, a whiteboard sketch and a video call"
              width={640}
              height={420}
              className="h-auto w-full"
            />
          </div>
        </section>

        <section aria-labelledby="features-title" className="mx-auto max-w-6xl px-4 py-16">
          <h2 id="features-title" className="text-center text-3xl font-bold text-slate-900">
            Everything a class needs
          </h2>
          <p className="mx-auto mt-3 max-w-2xl text-center text-slate-700">
            One place for the work of the week, whether you teach it or learn it.
          </p>
          <div className="mt-8">
            <FeatureTabs />
          </div>
        </section>

        <section aria-labelledby="how-title" className="bg-slate-50">
          <div className="mx-auto max-w-6xl px-4 py-16">
            <h2 id="how-title" className="text-center text-3xl font-bold text-slate-900">
              How it works
            </h2>
            <ol className="mt-10 grid gap-6 md:grid-cols-3">
              {STEPS.map((step, index) => (
                <li key={step.title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
                  <div className="flex items-center gap-3">
                    <span className="flex size-9 items-center justify-center rounded-full bg-brand-600 font-bold text-white">
                      {index + 1}
                    </span>
                    <step.icon className="size-6 text-brand-700" aria-hidden="true" />
                  </div>
                  <h3 className="mt-4 text-lg font-semibold text-slate-900">{step.title}</h3>
                  <p className="mt-1 text-slate-700">{step.text}</p>
                </li>
              ))}
            </ol>
            <div className="mt-10 flex justify-center">
              <Link to="/auth" className={buttonClasses('primary', 'px-6 py-3 text-base')}>
                Get Started
              </Link>
            </div>
          </div>
        </section>
      </main>

      <footer className="border-t border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-3 px-4 py-6 text-sm text-slate-700 sm:flex-row">
          <p>Self-hosted, no third-party services.</p>
          <div className="flex gap-5">
            <Link to="/auth" className="font-semibold text-brand-700 underline">
              Try the demo
            </Link>
            <a
              href="https://github.com/studyhall/studyhall"
              rel="noreferrer"
              className="font-semibold text-brand-700 underline"
            >
              Source code
            </a>
          </div>
        </div>
      </footer>
    </div>
  );
}
