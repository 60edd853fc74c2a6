import {
  BarChart3,
  BookOpen,
  ClipboardList,
  GraduationCap,
  LayoutDashboard,
  PenTool,
  Trophy,
  Video,
} from 'lucide-react';
import type { SideMenuItem } from '../../components/layout/side-menu.tsx';
import { RoleDashboard } from '../session/role-dashboard.tsx';
import { StudyModeShell } from './study-mode/study-mode-shell.tsx';

/** Student sidebar, in SPEC §2 order. */
const STUDENT_MENU: SideMenuItem[] = [
  { to: '/dashboard/student', label: 'Dashboard', icon: LayoutDashboard, isEnd: true },
  { to: '/dashboard/student/resources', label: 'Resources', icon: BookOpen },
  { to: '/dashboard/student/quiz', label: 'Quiz', icon: ClipboardList },
  // Decision 031, "Class screens" (not in SPEC §2).
  { to: '/dashboard/student/classes', label: 'My classes', icon: GraduationCap },
  { to: '/dashboard/student/canvas', label: 'Draw', icon: PenTool },
  { to: '/dashboard/student/emeet', label: 'EMeet', icon: Video },
  { to: '/dashboard/student/statistics', label: 'Statistics', icon: BarChart3 },
  { to: '/dashboard/student/leaderboard', label: 'LeaderBoard', icon: Trophy },
];

export function Component() {
  return (
    <RoleDashboard
      role="student"
      menuItems={STUDENT_MENU}
      frame={(dashboard) => <StudyModeShell>{dashboard}</StudyModeShell>}
    />
  );
}
