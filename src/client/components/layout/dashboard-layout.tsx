import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { DashboardHeader } from './dashboard-header.tsx';
import { SideMenu, type SideMenuItem } from './side-menu.tsx';

/** Header on top, side menu on the left, the current screen in <main>. */
export function DashboardLayout(props: {
  userName: string;
  dashboardPath: string;
  menuLabel: string;
  menuItems: SideMenuItem[];
  children?: ReactNode;
}) {
  return (
    <div className="flex min-h-screen flex-col">
      <DashboardHeader userName={props.userName} dashboardPath={props.dashboardPath} />
      <div className="flex flex-1">
        <SideMenu label={props.menuLabel} items={props.menuItems} />
        <main id="main" className="min-w-0 flex-1 p-4 sm:p-8">
          {props.children ?? <Outlet />}
        </main>
      </div>
    </div>
  );
}
