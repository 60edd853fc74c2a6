import { useLingui } from '@lingui/react/macro';
import { useMemo, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import type { UserRole } from '#shared/constants';
import { DashboardLayout } from '../../components/layout/dashboard-layout.tsx';
import { FocusedLayout, useIsFocusedScreen } from '../../components/layout/focused-layout.tsx';
import type { SideMenuItem } from '../../components/layout/side-menu.tsx';
import { accountPathFor, CHOOSE_PASSWORD_PATH, dashboardPathFor } from '../../lib/session.ts';
import type { ProfileOf } from './profile.ts';
import { RoleGuard } from './role-guard.tsx';

/**
 * A role's dashboard shell: its guard around the header, its menu and the screen.
 * `frame` wraps the whole dashboard once the profile is known (the student's study mode). A route
 * whose handle asks for a focused screen (the live game's projector and phone) has the frame and
 * the guard but neither header nor side menu.
 */
export function RoleDashboard<R extends UserRole>({
  role,
  menuItems,
  frame = (dashboard) => dashboard,
}: {
  role: R;
  /** The menu, or the menu for this profile (an administrator's has Staff). */
  menuItems: SideMenuItem[] | ((profile: ProfileOf<R>) => SideMenuItem[]);
  frame?: (dashboard: ReactNode) => ReactNode;
}) {
  // The address the person was going to: the forced screen goes on there once the password is
  // chosen. One object per address, as RoleGuard's login state (a new one would navigate again).
  const location = useLocation();
  const returnTo = `${location.pathname}${location.search}`;
  const choosePasswordState = useMemo(() => ({ returnTo }), [returnTo]);
  const { t } = useLingui();
  const isFocused = useIsFocusedScreen();
  return (
    <RoleGuard role={role}>
      {(profile) =>
        // After a teacher's reset, nothing but choosing a new password (decision 033).
        'mustChangePassword' in profile && profile.mustChangePassword ? (
          <Navigate to={CHOOSE_PASSWORD_PATH} replace state={choosePasswordState} />
        ) : (
          frame(
            isFocused ? (
              <FocusedLayout />
            ) : (
              <DashboardLayout
                userName={profile.name}
                dashboardPath={dashboardPathFor(role)}
                accountPath={accountPathFor(role)}
                menuLabel={role === 'teacher' ? t`Teacher menu` : t`Student menu`}
                menuItems={typeof menuItems === 'function' ? menuItems(profile) : menuItems}
              />
            ),
          )
        )
      }
    </RoleGuard>
  );
}
