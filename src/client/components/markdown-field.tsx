import { useLingui } from '@lingui/react/macro';
import { Bold, Heading, Italic, Link, List, ListOrdered, type LucideIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { cn } from '../lib/cn.ts';
import { formatNumber } from '../lib/format.ts';
import { applyEdit, formatEdit, type MarkdownFormat, type TextEdit } from './markdown-syntax.ts';
import { MarkdownText } from './markdown-text.tsx';
import { Field } from './ui/field.tsx';
import { Toolbar } from './ui/toolbar.tsx';

type MarkdownFieldProps = {
  label: string;
  /** The control's name in its form (from the form layer's `field(name)`), read as the form is sent. */
  name?: string;
  error?: string | undefined;
  hint?: string;
  id?: string;
  /** The most characters the server takes (UTF-16 units, as zod's max counts them). */
  limit: number;
  isRequired?: boolean;
  rows?: number;
  /** Uncontrolled: the starting text. */
  defaultValue?: string;
  /** Controlled: the text, with onChange. */
  value?: string;
  onChange?(value: string): void;
  /** The level of the preview's first heading (MarkdownText's). */
  topHeadingLevel?: 1 | 2 | 3 | 4 | 5 | 6;
};

const SHORTCUTS: Record<string, MarkdownFormat> = { b: 'bold', i: 'italic', k: 'link' };

/**
 * A Markdown text box for the form layer (decision 060): a formatting toolbar (bold, italic,
 * link, lists, heading) with Ctrl/⌘+B, I and K, Write and Preview (the preview is MarkdownText,
 * the same renderer the text will be shown with), and a count of characters against `limit`.
 * The text follows its own direction (dir="auto"); the toolbar is one tab stop, moved through
 * with the arrow keys, mirrored in right-to-left pages. A format is inserted as typing where
 * the browser allows it, so Ctrl+Z takes it back.
 */
export function MarkdownField({
  label,
  name,
  error,
  hint,
  id,
  limit,
  isRequired,
  rows = 8,
  defaultValue = '',
  value: controlledValue,
  onChange,
  topHeadingLevel,
}: MarkdownFieldProps) {
  const { t } = useLingui();
  const [ownValue, setOwnValue] = useState(defaultValue);
  const value = controlledValue ?? ownValue;
  // Preview, chosen while this problem showed (or none): a new problem is shown at the text, which
  // the preview hides, so it goes back to Write for the form to move the focus there.
  const [previewedAt, setPreviewedAt] = useState<{ error: string | undefined } | null>(null);
  const isPreview = previewedAt !== null && (!error || previewedAt.error === error);
  const setIsPreview = (isOn: boolean) => setPreviewedAt(isOn ? { error } : null);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const pendingSelection = useRef<{ start: number; end: number } | null>(null);
  const countId = useId();

  const setValue = (next: string) => {
    if (controlledValue === undefined) setOwnValue(next);
    onChange?.(next);
  };

  // The selection after a format that was applied through React state (not as typing).
  useEffect(() => {
    const selection = pendingSelection.current;
    const textarea = textareaRef.current;
    if (!selection || !textarea) return;
    pendingSelection.current = null;
    textarea.setSelectionRange(selection.start, selection.end);
  });

  const apply = (format: MarkdownFormat) => {
    const textarea = textareaRef.current;
    if (!textarea) return;
    const edit = formatEdit({ value, start: textarea.selectionStart, end: textarea.selectionEnd }, format);
    textarea.focus();
    if (!insertAsTyping(textarea, edit)) {
      pendingSelection.current = { start: edit.selectStart, end: edit.selectEnd };
      setValue(applyEdit(value, edit));
      return;
    }
    textarea.setSelectionRange(edit.selectStart, edit.selectEnd);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const format = SHORTCUTS[event.key.toLowerCase()];
    if (!format) return;
    event.preventDefault();
    apply(format);
  };

  const tools: { format: MarkdownFormat; label: string; icon: LucideIcon; keys?: string; isMirrored?: boolean }[] = [
    { format: 'heading', label: t`Heading`, icon: Heading },
    { format: 'bold', label: t`Bold`, icon: Bold, keys: 'Control+B Meta+B' },
    { format: 'italic', label: t`Italic`, icon: Italic, keys: 'Control+I Meta+I' },
    { format: 'link', label: t`Link`, icon: Link, keys: 'Control+K Meta+K' },
    { format: 'bulletList', label: t`Bulleted list`, icon: List, isMirrored: true },
    { format: 'numberedList', label: t`Numbered list`, icon: ListOrdered, isMirrored: true },
  ];

  const count = value.length;
  const isOver = count > limit;
  const countText = formatNumber(count);
  const limitText = formatNumber(limit);
  const overText = formatNumber(count - limit);

  return (
    <Field
      label={label}
      error={error}
      hint={hint}
      id={id}
      isRequired={isRequired}
      control={(attributes) => (
        <div className="flex flex-col gap-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            {isPreview ? (
              <span />
            ) : (
              <Toolbar label={t`Formatting`} controls={attributes.id} className="flex flex-wrap items-center gap-0.5">
                {tools.map(({ format, label: toolLabel, icon: Icon, keys, isMirrored }) => (
                  <button
                    key={format}
                    type="button"
                    aria-label={toolLabel}
                    title={toolLabel}
                    aria-keyshortcuts={keys}
                    // The selection stays in the text while the button is pressed.
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={() => apply(format)}
                    className="inline-flex size-9 items-center justify-center rounded-lg text-muted hover:bg-surface-muted hover:text-fg focus-visible:ring-2 focus-visible:ring-brand-500"
                  >
                    <Icon className={cn('size-4', isMirrored && 'rtl:-scale-x-100')} aria-hidden="true" />
                  </button>
                ))}
              </Toolbar>
            )}
            <div
              role="group"
              aria-label={t`Write or preview`}
              className="flex rounded-lg bg-surface-muted p-0.5 text-sm"
            >
              {[
                { isOn: !isPreview, text: t`Write`, onClick: () => setIsPreview(false) },
                { isOn: isPreview, text: t`Preview`, onClick: () => setIsPreview(true) },
              ].map(({ isOn, text, onClick }) => (
                <button
                  key={text}
                  type="button"
                  aria-pressed={isOn}
                  onClick={onClick}
                  className={cn(
                    'rounded-md px-3 py-1 font-medium',
                    isOn ? 'bg-surface text-fg shadow-sm' : 'text-muted hover:text-fg',
                  )}
                >
                  {text}
                </button>
              ))}
            </div>
          </div>
          <textarea
            {...attributes}
            ref={textareaRef}
            name={name}
            dir="auto"
            rows={rows}
            required={isRequired}
            hidden={isPreview}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            onKeyDown={onKeyDown}
            aria-describedby={[attributes['aria-describedby'], countId].filter(Boolean).join(' ')}
          />
          {isPreview ? (
            <div
              aria-label={t`Preview`}
              role="region"
              className="min-h-24 rounded-lg border border-line-strong bg-surface px-3 py-2.5"
            >
              {value.trim() === '' ? (
                <p className="text-muted">{t`Nothing to preview yet.`}</p>
              ) : (
                <MarkdownText source={value} {...(topHeadingLevel ? { topHeadingLevel } : {})} />
              )}
            </div>
          ) : null}
          <p id={countId} className={cn('text-end text-xs', isOver ? 'font-medium text-danger' : 'text-muted')}>
            {isOver
              ? t`Characters: ${countText} of ${limitText} (${overText} too many)`
              : t`Characters: ${countText} of ${limitText}`}
          </p>
        </div>
      )}
    />
  );
}

/**
 * The browser's own insertion (execCommand 'insertText'), which keeps Ctrl+Z: deprecated but
 * the only way to edit a text box as typing, and supported by every browser we target. False
 * where it is missing (jsdom) or refused; the caller sets the value itself then.
 */
function insertAsTyping(textarea: HTMLTextAreaElement, edit: TextEdit): boolean {
  if (typeof document.execCommand !== 'function') return false;
  textarea.setSelectionRange(edit.from, edit.to);
  try {
    return document.execCommand('insertText', false, edit.insert);
  } catch {
    return false;
  }
}
