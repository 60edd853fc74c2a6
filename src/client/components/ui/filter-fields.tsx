import { Search } from 'lucide-react';

/** The look of a filter input or select (search boxes, class pickers). */
export const FIELD_CLASSES =
  'w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm outline-none focus:ring-2 focus:ring-brand-500';

/** A labelled search box with a magnifier icon. */
export function SearchField(props: {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  maxLength: number;
  placeholder: string;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={props.id} className="text-sm font-medium text-slate-800">
        {props.label}
      </label>
      <div className="relative">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500"
          aria-hidden="true"
        />
        <input
          id={props.id}
          type="search"
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
          maxLength={props.maxLength}
          placeholder={props.placeholder}
          autoComplete="off"
          className={`${FIELD_CLASSES} pl-9`}
        />
      </div>
    </div>
  );
}

/** A labelled "Class" select: all classes, or one of the given ones. */
export function ClassSelect(props: { id: string; value: string; options: string[]; onChange(value: string): void }) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={props.id} className="text-sm font-medium text-slate-800">
        Class
      </label>
      <select
        id={props.id}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        className={FIELD_CLASSES}
      >
        <option value="">All classes</option>
        {props.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </div>
  );
}
