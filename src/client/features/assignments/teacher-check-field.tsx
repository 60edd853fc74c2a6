import type { ReactNode } from 'react';

/** A labelled checkbox row. */
export function CheckField(props: {
  label: ReactNode;
  checked: boolean;
  disabled?: boolean;
  name?: string;
  dataField?: string;
  onChange(checked: boolean): void;
}) {
  return (
    <label className="flex items-center gap-2 text-sm text-fg has-disabled:text-muted">
      <input
        type="checkbox"
        className="size-4 accent-brand-600"
        name={props.name}
        data-field={props.dataField}
        checked={props.checked}
        disabled={props.disabled}
        onChange={(event) => props.onChange(event.target.checked)}
      />
      {props.label}
    </label>
  );
}
