import { useLingui } from '@lingui/react/macro';
import {
  BookOpen,
  ClipboardCheck,
  ClipboardList,
  GraduationCap,
  LayoutDashboard,
  PenTool,
  School,
  Trophy,
  Users,
  Video,
} from 'lucide-react';
import type { SideMenuItem } from '../../components/layout/side-menu.tsx';
import { RoleDashboard } from '../session/role-dashboard.tsx';

export function Component() {
  const { t } = useLingui();
  /** Teacher side menu, in SPEC §2 order, with Classes beside Students; worded in the active locale. */
  const teacherMenu: SideMenuItem[] = [
    { to: '/dashboard/teacher', label: t`Dashboard`, icon: LayoutDashboard, isEnd: true },
    { to: '/dashboard/teacher/resources', label: t`Resources`, icon: BookOpen },
    { to: '/dashboard/teacher/students', label: t`Students`, icon: Users },
    // Beside Students (decision 031, "Class screens"; not in SPEC §2).
    { to: '/dashboard/teacher/classes', label: t`Classes`, icon: GraduationCap },
    // Homework handed out and handed in (decision 063, issue 33; not in SPEC §2).
    {
      to: '/dashboard/teacher/assignments',
      label: t({ comment: 'The menu entry of the assignments (homework) screens', message: 'Assignments' }),
      icon: ClipboardCheck,
    },
    {
      to: '/dashboard/teacher/all-quiz',
      label: t({ comment: 'The menu entry of the quizzes screen', message: 'Quiz' }),
      icon: ClipboardList,
    },
    {
      to: '/dashboard/teacher/canvas',
      label: t({ comment: 'The menu entry of the whiteboard (drawing canvas)', message: 'Draw' }),
      icon: PenTool,
    },
    {
      to: '/dashboard/teacher/emeet',
      label: t({ comment: 'The menu entry of the video meetings; EMeet is the feature’s name', message: 'EMeet' }),
      icon: Video,
    },
    { to: '/dashboard/teacher/leaderboard', label: t`LeaderBoard`, icon: Trophy },
  ];
  // Administrators also run the school's staff (decision 030).
  const administratorMenu: SideMenuItem[] = [
    ...teacherMenu,
    { to: '/dashboard/teacher/staff', label: t`Staff`, icon: School },
  ];
  return (
    <RoleDashboard
      role="teacher"
      menuItems={(profile) => (profile.isAdministrator ? administratorMenu : teacherMenu)}
    />
  );
}
