import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import {
  BarChart3,
  BookOpen,
  ClipboardList,
  GraduationCap,
  LayoutDashboard,
  NotebookPen,
  PenTool,
  Trophy,
  Video,
} from 'lucide-react';
import { Link } from 'react-router';
import type { SideMenuItem } from '../../components/layout/side-menu.tsx';
import { buttonVariants } from '../../components/ui/button.tsx';
import { RoleDashboard } from '../session/role-dashboard.tsx';
import { StudyModeShell } from './study-mode/study-mode-shell.tsx';

/** Student sidebar, in SPEC §2 order; the labels are worded in the active locale at render. */
const STUDENT_MENU: (Omit<SideMenuItem, 'label'> & { label: MessageDescriptor })[] = [
  { to: '/dashboard/student', label: msg`Dashboard`, icon: LayoutDashboard, isEnd: true },
  { to: '/dashboard/student/resources', label: msg`Resources`, icon: BookOpen },
  {
    to: '/dashboard/student/quiz',
    label: msg({ comment: 'Menu entry: the student’s quizzes', message: 'Quiz' }),
    icon: ClipboardList,
  },
  // Issue 33, decision 064.
  {
    to: '/dashboard/student/assignments',
    label: msg({ comment: 'Menu entry: the student’s homework and classwork', message: 'Assignments' }),
    icon: NotebookPen,
  },
  // Decision 031, "Class screens" (not in SPEC §2).
  { to: '/dashboard/student/classes', label: msg`My classes`, icon: GraduationCap },
  {
    to: '/dashboard/student/canvas',
    label: msg({ comment: 'Menu entry: the drawing board', message: 'Draw' }),
    icon: PenTool,
  },
  {
    to: '/dashboard/student/emeet',
    label: msg({ comment: 'Menu entry: the video meetings; EMeet is the feature’s name', message: 'EMeet' }),
    icon: Video,
  },
  { to: '/dashboard/student/statistics', label: msg`Statistics`, icon: BarChart3 },
  { to: '/dashboard/student/grades', label: msg`Grades`, icon: ClipboardList },
  {
    to: '/dashboard/student/leaderboard',
    label: msg({ comment: 'Menu entry: the class ranking', message: 'LeaderBoard' }),
    icon: Trophy,
  },
];

export function Component() {
  const { t } = useLingui();
  const menuItems = STUDENT_MENU.map((item) => ({ ...item, label: t(item.label) }));
  return (
    <RoleDashboard
      role="student"
      menuItems={menuItems}
      frame={(dashboard) => (
        <StudyModeShell
          gateLinks={
            // Decision 070: the PIN page is outside study mode and lists the running games to join.
            <Link
              to="/dashboard/student/live"
              className={buttonVariants({ variant: 'secondary', className: 'mt-3 w-full justify-center' })}
            >
              {t`Join a live game`}
            </Link>
          }
        >
          {dashboard}
        </StudyModeShell>
      )}
    />
  );
}
