import {
  BookOpen,
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

/** Teacher side menu, in SPEC §2 order, with Classes beside Students. */
const TEACHER_MENU: SideMenuItem[] = [
  { to: '/dashboard/teacher', label: 'Dashboard', icon: LayoutDashboard, isEnd: true },
  { to: '/dashboard/teacher/resources', label: 'Resources', icon: BookOpen },
  { to: '/dashboard/teacher/students', label: 'Students', icon: Users },
  // Beside Students (decision 031, "Class screens"; not in SPEC §2).
  { to: '/dashboard/teacher/classes', label: 'Classes', icon: GraduationCap },
  { to: '/dashboard/teacher/all-quiz', label: 'Quiz', icon: ClipboardList },
  { to: '/dashboard/teacher/canvas', label: 'Draw', icon: PenTool },
  { to: '/dashboard/teacher/emeet', label: 'EMeet', icon: Video },
  { to: '/dashboard/teacher/leaderboard', label: 'LeaderBoard', icon: Trophy },
];

/** Administrators also run the school's staff (decision 030). */
const ADMINISTRATOR_MENU: SideMenuItem[] = [
  ...TEACHER_MENU,
  { to: '/dashboard/teacher/staff', label: 'Staff', icon: School },
];

export function Component() {
  return (
    <RoleDashboard
      role="teacher"
      menuItems={(profile) => (profile.isAdministrator ? ADMINISTRATOR_MENU : TEACHER_MENU)}
    />
  );
}
