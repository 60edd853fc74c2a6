import { useLingui } from '@lingui/react/macro';
import { ChevronLeft, ChevronRight, type LucideIcon } from 'lucide-react';
import { useState } from 'react';
import { NavLink } from 'react-router';
import { Tooltip } from '../ui/tooltip.tsx';

export type SideMenuItem = { to: string; label: string; icon: LucideIcon; isEnd?: boolean };

const STORAGE_KEY = 'sideMenuExpanded';

const isSmallScreen = () => !window.matchMedia('(min-width: 768px)').matches;

/** Phones always start with icons only; wider screens remember the last choice. */
function initiallyExpanded(): boolean {
  if (isSmallScreen()) return false;
  return localStorage.getItem(STORAGE_KEY) !== 'false';
}

/**
 * Teacher side menu / student sidebar (SPEC §2): expanded shows icons with
 * titles; collapsed shows icons only, titles as tooltips; an arrow toggles.
 */
export function SideMenu({ label, items }: { label: string; items: SideMenuItem[] }) {
  const [isExpanded, setIsExpanded] = useState(initiallyExpanded);
  const { t } = useLingui();
  const toggle = () => {
    if (!isSmallScreen()) localStorage.setItem(STORAGE_KEY, String(!isExpanded));
    setIsExpanded(!isExpanded);
  };
  // On a phone the open menu covers the page, so choosing a screen closes it.
  const closeOnSmallScreen = () => {
    if (isSmallScreen()) setIsExpanded(false);
  };
  return (
    // The wrapper keeps the icon column's width in the page; on phones the
    // expanded menu lies over the content instead of squeezing it.
    <div className="relative w-16 shrink-0 md:w-auto">
      <nav
        aria-label={label}
        data-expanded={isExpanded}
        className={`flex h-full flex-col border-e border-line bg-surface py-3 transition-[width] duration-200 ${
          isExpanded ? 'w-52 max-md:absolute max-md:inset-y-0 max-md:start-0 max-md:z-30 max-md:shadow-xl' : 'w-16'
        }`}
      >
        <button
          type="button"
          onClick={toggle}
          aria-expanded={isExpanded}
          aria-label={isExpanded ? t`Collapse menu` : t`Expand menu`}
          className="mx-3 mb-2 flex h-9 items-center justify-center self-end rounded-md text-muted hover:bg-surface-muted hover:text-fg"
        >
          {isExpanded ? (
            <ChevronLeft className="size-5 rtl:-scale-x-100" aria-hidden="true" />
          ) : (
            <ChevronRight className="size-5 rtl:-scale-x-100" aria-hidden="true" />
          )}
        </button>
        <ul className="flex flex-col gap-1 px-2">
          {items.map((item) => (
            <li key={item.to}>
              <Tooltip label={item.label} isEnabled={!isExpanded}>
                {(describedBy) => (
                  <NavLink
                    to={item.to}
                    end={item.isEnd}
                    onClick={closeOnSmallScreen}
                    aria-label={isExpanded ? undefined : item.label}
                    aria-describedby={describedBy}
                    className={({ isActive }) =>
                      `flex h-10 items-center gap-3 rounded-lg px-3 text-sm font-medium ${
                        isExpanded ? 'w-48' : 'w-12 justify-center'
                      } ${isActive ? 'bg-brand-600 text-white' : 'text-muted hover:bg-brand-50 hover:text-brand-800'}`
                    }
                  >
                    <item.icon className="size-5 shrink-0" aria-hidden="true" />
                    {isExpanded ? <span className="truncate">{item.label}</span> : null}
                  </NavLink>
                )}
              </Tooltip>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
