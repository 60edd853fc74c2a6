import { CONTROL } from './tool-controls.tsx';

/*
 * The pen's colour and width tiles: the personal whiteboard's toolbar (SPEC §2, "brush colour" and
 * "brush size") and the class board's (issue 35, "pen colour" and "pen width") show the same two,
 * each with its own words and its own way of taking the choice.
 */

/**
 * A colour tile: the visible caption (under the swatch on a phone, beside it from sm) and a
 * colour input named by `accessibleLabel`. `onChange` gets the input's value as it comes.
 */
export function ColourControl(props: {
  label: string;
  accessibleLabel: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <label
      className={`${CONTROL} cursor-pointer border-line-strong bg-surface text-fg hover:bg-surface-sunken max-sm:flex-col-reverse sm:px-2`}
    >
      <span>{props.label}</span>
      <input
        type="color"
        aria-label={props.accessibleLabel}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        className="h-6 w-8 cursor-pointer rounded border border-line-strong bg-surface p-0.5 sm:h-7"
      />
    </label>
  );
}

/**
 * A width tile: the visible caption and a select of `choices` named by `accessibleLabel`, each
 * choice shown as `optionLabel` says (the whiteboard marks its default one).
 */
export function WidthControl(props: {
  label: string;
  accessibleLabel: string;
  value: number;
  choices: readonly number[];
  optionLabel: (choice: number) => string;
  onChange: (value: number) => void;
}) {
  return (
    <label className={`${CONTROL} border-line-strong bg-surface text-fg max-sm:flex-col-reverse sm:ps-2 sm:pe-1`}>
      <span>{props.label}</span>
      <select
        aria-label={props.accessibleLabel}
        value={props.value}
        onChange={(event) => props.onChange(Number(event.target.value))}
        className="h-6 rounded-md bg-surface px-0.5 text-xs font-normal sm:h-8 sm:px-1 sm:text-sm"
      >
        {props.choices.map((choice) => (
          <option key={choice} value={choice}>
            {props.optionLabel(choice)}
          </option>
        ))}
      </select>
    </label>
  );
}
