import { useLingui } from '@lingui/react/macro';
import { Search } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';
import { Field } from './field.tsx';

/** What every filter control takes: a label (tied to an id of its own unless given one), a value and where it goes. */
type FilterFieldProps = {
  id?: string;
  label: string;
  value: string;
  onChange(value: string): void;
  className?: string;
};

/** The filters above a list, as a search landmark; Enter applies the typed boxes at once. */
export function FilterForm(props: { label: string; className?: string; onApply(): void; children: ReactNode }) {
  return (
    <form
      role="search"
      aria-label={props.label}
      className={props.className}
      onSubmit={(event) => {
        event.preventDefault();
        props.onApply();
      }}
    >
      {props.children}
    </form>
  );
}

/** A labelled search box with a magnifier icon. */
export function SearchField(props: FilterFieldProps & { maxLength: number; placeholder: string }) {
  return (
    <Field
      id={props.id}
      label={props.label}
      className={props.className}
      control={(attributes) => (
        <div className="relative">
          <Search
            className="pointer-events-none absolute start-3 top-1/2 size-4 -translate-y-1/2 text-muted"
            aria-hidden="true"
          />
          <input
            {...attributes}
            type="search"
            value={props.value}
            onChange={(event) => props.onChange(event.target.value)}
            maxLength={props.maxLength}
            placeholder={props.placeholder}
            autoComplete="off"
            className={cn(attributes.className, 'ps-9')}
          />
        </div>
      )}
    />
  );
}

/** A labelled select of fixed choices (filters: class, type, sort). */
export function SelectField(props: FilterFieldProps & { options: { value: string; label: string }[] }) {
  return (
    <Field
      id={props.id}
      label={props.label}
      className={props.className}
      control={(attributes) => (
        <select {...attributes} value={props.value} onChange={(event) => props.onChange(event.target.value)}>
          {props.options.map((option) => (
            // dir="auto": a class named "10-A التاريخ" keeps its order in an Arabic page's menu.
            <option key={option.value} value={option.value} dir="auto">
              {option.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/**
 * A labelled "Class" select of class records (decision 031): its value is the class's id.
 * With `allLabel`, an empty value is that choice (all classes, or the server's default).
 */
export function ClassIdSelect(
  props: Omit<FilterFieldProps, 'label'> & { classes: { _id: string; name: string }[]; allLabel?: string },
) {
  const { t } = useLingui();
  return (
    <SelectField
      id={props.id}
      label={t`Class`}
      value={props.value}
      onChange={props.onChange}
      options={[
        ...(props.allLabel === undefined ? [] : [{ value: '', label: props.allLabel }]),
        ...props.classes.map((option) => ({ value: option._id, label: option.name })),
      ]}
    />
  );
}
