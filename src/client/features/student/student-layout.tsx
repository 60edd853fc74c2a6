import { BarChart3, BookOpen, ClipboardList, LayoutDashboard, PenTool, Trophy, Video } from 'lucide-react';
import { DashboardLayout } from '../../components/layout/dashboard-layout.tsx';
import type { SideMenuItem } from '../../components/layout/side-menu.tsx';
import { RoleGuard } from '../session/role-guard.tsx';

/** Student sidebar, in SPEC §2 order. */
const STUDENT_MENU: SideMenuItem[] = [
  { to: '/dashboard/student', label: 'Dashboard', icon: LayoutDashboard, isEnd: true },
  { to: '/dashboard/student/resources', label: 'Resources', icon: BookOpen },
  { to: '/dashboard/student/quiz', label: 'Quiz', icon: ClipboardList },
  { to: '/dashboard/student/canvas', label: 'Draw', icon: PenTool },
  { to: '/dashboard/student/emeet', label: 'EMeet', icon: Video },
  { to: '/dashboard/student/statistics', label: 'Statistics', icon: BarChart3 },
  { to: '/dashboard/student/leaderboard', label: 'LeaderBoard', icon: Trophy },
];

export function Component() {
  return (
    <RoleGuard role="student">
      {(student) => (
        <DashboardLayout
          userName={student.name}
          dashboardPath="/dashboard/student"
          menuLabel="Student menu"
          menuItems={STUDENT_MENU}
        />
      )}
    </RoleGuard>
  );
}
