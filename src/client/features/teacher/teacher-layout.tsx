import { BookOpen, ClipboardList, LayoutDashboard, PenTool, Trophy, Users, Video } from 'lucide-react';
import { DashboardLayout } from '../../components/layout/dashboard-layout.tsx';
import type { SideMenuItem } from '../../components/layout/side-menu.tsx';
import { RoleGuard } from '../session/role-guard.tsx';

/** Teacher side menu, in SPEC §2 order. */
const TEACHER_MENU: SideMenuItem[] = [
  { to: '/dashboard/teacher', label: 'Dashboard', icon: LayoutDashboard, isEnd: true },
  { to: '/dashboard/teacher/resources', label: 'Resources', icon: BookOpen },
  { to: '/dashboard/teacher/students', label: 'Students', icon: Users },
  { to: '/dashboard/teacher/all-quiz', label: 'Quiz', icon: ClipboardList },
  { to: '/dashboard/teacher/canvas', label: 'Draw', icon: PenTool },
  { to: '/dashboard/teacher/emeet', label: 'EMeet', icon: Video },
  { to: '/dashboard/teacher/leaderboard', label: 'LeaderBoard', icon: Trophy },
];

export function Component() {
  return (
    <RoleGuard role="teacher">
      {(teacher) => (
        <DashboardLayout
          userName={teacher.name}
          dashboardPath="/dashboard/teacher"
          menuLabel="Teacher menu"
          menuItems={TEACHER_MENU}
        />
      )}
    </RoleGuard>
  );
}
