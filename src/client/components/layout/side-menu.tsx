import { ChevronLeft, ChevronRight, type LucideIcon } from 'lucide-react';
import { useState } from 'react';
import { NavLink } from 'react-router';
import { Tooltip } from '../ui/tooltip.tsx';

export type SideMenuItem = { to: string; label: string; icon: LucideIcon; isEnd?: boolean };

const STORAGE_KEY = 'sideMenuExpanded';

function initiallyExpanded(): boolean {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored !== null) return stored === 'true';
  // Phones start with icons only so the page keeps its width.
  return window.matchMedia('(min-width: 768px)').matches;
}

/**
 * Teacher side menu / student sidebar (SPEC §2): expanded shows icons with
 * titles; collapsed shows icons only, titles as tooltips; an arrow toggles.
 */
export function SideMenu({ label, items }: { label: string; items: SideMenuItem[] }) {
  const [isExpanded, setIsExpanded] = useState(initiallyExpanded);
  const toggle = () => {
    setIsExpanded((current) => {
      localStorage.setItem(STORAGE_KEY, String(!current));
      return !current;
    });
  };
  return (
    <nav
      aria-label={label}
      data-expanded={isExpanded}
      className={`flex shrink-0 flex-col border-r border-slate-200 bg-white py-3 transition-[width] duration-200 ${
        isExpanded ? 'w-52' : 'w-16'
      }`}
    >
      <button
        type="button"
        onClick={toggle}
        aria-expanded={isExpanded}
        aria-label={isExpanded ? 'Collapse menu' : 'Expand menu'}
        className="mx-3 mb-2 flex h-9 items-center justify-center self-end rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900"
      >
        {isExpanded ? (
          <ChevronLeft className="size-5" aria-hidden="true" />
        ) : (
          <ChevronRight className="size-5" aria-hidden="true" />
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
                  aria-label={isExpanded ? undefined : item.label}
                  aria-describedby={describedBy}
                  className={({ isActive }) =>
                    `flex h-10 items-center gap-3 rounded-lg px-3 text-sm font-medium ${
                      isExpanded ? 'w-48' : 'w-12 justify-center'
                    } ${isActive ? 'bg-brand-600 text-white' : 'text-slate-700 hover:bg-brand-50 hover:text-brand-800'}`
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
  );
}
