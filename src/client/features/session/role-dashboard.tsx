import type { UserRole } from '#shared/constants';
import { DashboardLayout } from '../../components/layout/dashboard-layout.tsx';
import type { SideMenuItem } from '../../components/layout/side-menu.tsx';
import { dashboardPathFor } from '../../lib/session.ts';
import { RoleGuard } from './role-guard.tsx';

/** A role's dashboard shell: its guard around the header, its menu and the screen. */
export function RoleDashboard({ role, menuItems }: { role: UserRole; menuItems: SideMenuItem[] }) {
  return (
    <RoleGuard role={role}>
      {(profile) => (
        <DashboardLayout
          userName={profile.name}
          dashboardPath={dashboardPathFor(role)}
          menuLabel={role === 'teacher' ? 'Teacher menu' : 'Student menu'}
          menuItems={menuItems}
        />
      )}
    </RoleGuard>
  );
}
