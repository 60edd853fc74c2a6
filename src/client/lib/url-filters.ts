import { useCallback, useEffect, useEffectEvent, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod/mini';

/** How long typing pauses before a text filter reaches the address (and so the server). */
export const FILTER_DEBOUNCE_MS = 300;

/**
 * A screen's filters as the address holds them: text, one field each, every field with a
 * `.catch(default)` so a hand-edited or outdated address means the default, never an error.
 */
export type FilterSchema = z.ZodMiniObject<Record<string, z.ZodMiniType<string>>>;

/** What a filter's text box shows, and where its changes go. */
export type TextInput = { value: string; onChange(value: string): void };

/**
 * A free-text filter read through its endpoint's own query field (`listStudents.query.shape.search`),
 * so a value the server would refuse (too long, a control character) is the default here:
 * trimmed, empty when absent or refused.
 */
export const textFilter = (field: z.ZodMiniType<string | undefined, string | undefined>) =>
  z.catch(
    z.pipe(
      field,
      z.transform((value) => value ?? ''),
    ),
    '',
  );

/** The entries of `values` named in `names` that it has. */
const pickTexts = <T extends Record<string, string>>(values: T, names: readonly string[]) =>
  Object.fromEntries(names.filter((name) => name in values).map((name) => [name, values[name]])) as Partial<T>;

/** The filters `params` hold, read through `schema`. */
export function readUrlFilters<S extends FilterSchema>(schema: S, params: URLSearchParams): z.output<S> {
  return schema.parse(
    Object.fromEntries(Object.keys(schema.shape).map((name) => [name, params.get(name) ?? undefined])),
  );
}

/** `params` with `changes` applied; an empty or default value leaves the address, so the plain address is the default list. */
export function withUrlFilters(
  params: URLSearchParams,
  changes: Readonly<Record<string, string>>,
  defaults: Readonly<Record<string, string>>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [name, value] of Object.entries(changes)) {
    if (value && value !== defaults[name]) next.set(name, value);
    else next.delete(name);
  }
  return next;
}

/**
 * The screen's filters in the address, so a reload or a shared link keeps them. `filters` is
 * what the address says (what the list asks the server for); `setFilter` changes one at once
 * (a select, a toggle). The `text` fields have boxes: `textInput(name)` is what one shows and
 * its change handler, which shows a change at once and sends every box to the address once typing pauses for
 * `FILTER_DEBOUNCE_MS`; `applyTexts` sends them at once (Enter).
 */
export function useUrlFilters<S extends FilterSchema>(
  schema: S,
  { text = [] }: { text?: readonly (keyof z.output<S> & string)[] } = {},
) {
  type Name = keyof z.output<S> & string;
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const filters = useMemo(() => readUrlFilters(schema, searchParams), [schema, searchParams]);
  const defaults = useMemo(() => readUrlFilters(schema, new URLSearchParams()), [schema]);
  const applied = filters as Record<Name, string>;

  // Changes replace the address instead of stacking history entries. They start from the
  // address as it is now, not as the last render saw it: a debounced search landing right
  // after a class was picked would otherwise put the old class back.
  const addressTexts = Object.fromEntries(text.map((name) => [name, applied[name]])) as Record<Name, string>;
  // What the address said of each box at the last render, and what the box last agreed with
  // (the hook wrote it, or copied it into the box).
  const [seenTexts, setSeenTexts] = useState(addressTexts);
  const [syncedTexts, setSyncedTexts] = useState(addressTexts);

  const write = useCallback(
    (changes: Readonly<Record<string, string>>) => {
      const next = withUrlFilters(new URLSearchParams(window.location.search), changes, defaults);
      const written = readUrlFilters(schema, next) as Record<Name, string>;
      setSyncedTexts((current) => ({ ...current, ...pickTexts(written, Object.keys(changes)) }));
      void navigate(`?${next.toString()}`, { replace: true });
    },
    [navigate, defaults, schema],
  );

  const [texts, setTexts] = useState(addressTexts);
  // The address changed to something the hook did not write (a menu link to the plain address,
  // Back): the box shows it, or the pause would write the old text back.
  const moved = text.filter((name) => addressTexts[name] !== seenTexts[name]);
  if (moved.length > 0) {
    setSeenTexts(addressTexts);
    const fromElsewhere = moved.filter((name) => addressTexts[name] !== syncedTexts[name]);
    if (fromElsewhere.length > 0) {
      const copied = pickTexts(addressTexts, fromElsewhere);
      setSyncedTexts((current) => ({ ...current, ...copied }));
      setTexts((current) => ({ ...current, ...copied }));
    }
  }
  const typed = () => Object.fromEntries(text.map((name) => [name, texts[name].trim()])) as Record<Name, string>;
  const pending = text.filter((name) => texts[name].trim() !== applied[name]);
  const pendingKey = pending.map((name) => `${name}=${texts[name].trim()}`).join('&');
  const sendTyped = useEffectEvent(() => write(typed()));
  useEffect(() => {
    if (!pendingKey) return;
    const timer = setTimeout(sendTyped, FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [pendingKey]);

  return {
    filters,
    setFilter: (name: Name, value: string) => {
      if (text.includes(name)) setTexts((current) => ({ ...current, [name]: value }));
      write({ [name]: value });
    },
    texts,
    /** A text box's value and change handler. */
    textInput: (name: Name): TextInput => ({
      value: texts[name],
      onChange: (value: string) => setTexts((current) => ({ ...current, [name]: value })),
    }),
    applyTexts: () => write(typed()),
  };
}
