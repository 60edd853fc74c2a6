import type { ReactNode } from 'react';
import type { UserRole } from '#shared/constants';
import { DashboardLayout } from '../../components/layout/dashboard-layout.tsx';
import type { SideMenuItem } from '../../components/layout/side-menu.tsx';
import { accountPathFor, dashboardPathFor } from '../../lib/session.ts';
import { RoleGuard } from './role-guard.tsx';

/**
 * A role's dashboard shell: its guard around the header, its menu and the screen.
 * `frame` wraps the whole dashboard once the profile is known (the student's study mode).
 */
export function RoleDashboard({
  role,
  menuItems,
  frame = (dashboard) => dashboard,
}: {
  role: UserRole;
  menuItems: SideMenuItem[];
  frame?: (dashboard: ReactNode) => ReactNode;
}) {
  return (
    <RoleGuard role={role}>
      {(profile) =>
        frame(
          <DashboardLayout
            userName={profile.name}
            dashboardPath={dashboardPathFor(role)}
            accountPath={accountPathFor(role)}
            menuLabel={role === 'teacher' ? 'Teacher menu' : 'Student menu'}
            menuItems={menuItems}
          />,
        )
      }
    </RoleGuard>
  );
}
