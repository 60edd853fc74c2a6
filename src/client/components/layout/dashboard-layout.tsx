import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { DashboardHeader } from './dashboard-header.tsx';
import { SideMenu, type SideMenuItem } from './side-menu.tsx';

/** Header on top, side menu at the start (left, or right in Arabic), the current screen in <main>. */
export function DashboardLayout(props: {
  userName: string;
  dashboardPath: string;
  accountPath: string;
  menuLabel: string;
  menuItems: SideMenuItem[];
  children?: ReactNode;
}) {
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-surface px-3 py-2 font-semibold text-brand-700 focus:not-sr-only focus:fixed focus:start-2 focus:top-2"
      >
        <Trans>Skip to content</Trans>
      </a>
      <DashboardHeader userName={props.userName} dashboardPath={props.dashboardPath} accountPath={props.accountPath} />
      <div className="flex flex-1">
        <SideMenu label={props.menuLabel} items={props.menuItems} />
        <main id="main" className="min-w-0 flex-1 p-4 sm:p-8">
          {props.children ?? <Outlet />}
        </main>
      </div>
    </div>
  );
}
