import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderTranslated } from '../testing/render-translated.tsx';
import { MarkdownField } from './markdown-field.tsx';

function renderField(defaultValue = '', props: { limit?: number; onChange?(value: string): void } = {}) {
  const result = renderTranslated(
    <form aria-label="Assignment">
      <MarkdownField
        label="Instructions"
        name="instructions"
        limit={props.limit ?? 100}
        defaultValue={defaultValue}
        {...(props.onChange ? { onChange: props.onChange } : {})}
      />
    </form>,
  );
  const textarea = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Instructions' });
  return { ...result, textarea };
}

function select(textarea: HTMLTextAreaElement, start: number, end = start) {
  textarea.focus();
  textarea.setSelectionRange(start, end);
}

describe('MarkdownField', () => {
  it('is a labelled text box that follows its text’s direction, sent with its form', () => {
    const { textarea } = renderField('Hello');
    expect(textarea).toHaveAttribute('dir', 'auto');
    expect(textarea).toHaveAttribute('name', 'instructions');
    const form = screen.getByRole<HTMLFormElement>('form', { name: 'Assignment' });
    expect(new FormData(form).get('instructions')).toBe('Hello');
  });

  it.each([
    ['Bold', 'Read the book', 5, 9, 'Read **the** book', [7, 10]],
    ['Italic', 'Read the book', 5, 9, 'Read *the* book', [6, 9]],
    ['Link', 'See the text', 4, 12, 'See [the text](https://)', [15, 23]],
    ['Heading', 'Title\nbody', 2, 2, '# Title\nbody', [7, 7]],
    ['Bulleted list', 'one\ntwo\nthree', 0, 7, '- one\n- two\nthree', [0, 11]],
    ['Numbered list', 'one\ntwo', 1, 5, '1. one\n2. two', [0, 13]],
  ] as const)('%s puts its syntax around the selection', (tool, text, start, end, expected, selection) => {
    const { textarea } = renderField(text);
    select(textarea, start, end);
    fireEvent.click(screen.getByRole('button', { name: tool }));
    expect(textarea.value).toBe(expected);
    expect([textarea.selectionStart, textarea.selectionEnd]).toEqual(selection);
    expect(textarea).toHaveFocus();
  });

  it('takes bold away when pressed again, and a list when every line has it', () => {
    const { textarea } = renderField('Read **the** book\n- a\n- b');
    select(textarea, 7, 10);
    fireEvent.click(screen.getByRole('button', { name: 'Bold' }));
    expect(textarea.value).toBe('Read the book\n- a\n- b');
    select(textarea, 15, 22);
    fireEvent.click(screen.getByRole('button', { name: 'Bulleted list' }));
    expect(textarea.value).toBe('Read the book\na\nb');
  });

  it('makes a selected URL a link’s address, with the cursor where its text goes', () => {
    const { textarea } = renderField('https://example.org');
    select(textarea, 0, 19);
    fireEvent.click(screen.getByRole('button', { name: 'Link' }));
    expect(textarea.value).toBe('[](https://example.org)');
    expect(textarea.selectionStart).toBe(1);
  });

  it.each([
    ['b', { ctrlKey: true }, '**word**'],
    ['i', { ctrlKey: true }, '*word*'],
    ['k', { metaKey: true }, '[word](https://)'],
    ['B', { metaKey: true }, '**word**'],
  ])('Ctrl/⌘+%s formats the selection', (key, modifiers, expected) => {
    const { textarea } = renderField('word');
    select(textarea, 0, 4);
    const isNotCancelled = fireEvent.keyDown(textarea, { key, ...modifiers });
    expect(isNotCancelled).toBe(false); // the browser's own Ctrl+B/I/K do not run
    expect(textarea.value).toBe(expected);
  });

  it('leaves other keys and Ctrl+Shift+B to the browser', () => {
    const { textarea } = renderField('word');
    select(textarea, 0, 4);
    expect(fireEvent.keyDown(textarea, { key: 'b', ctrlKey: true, shiftKey: true })).toBe(true);
    expect(fireEvent.keyDown(textarea, { key: 'x', ctrlKey: true })).toBe(true);
    expect(textarea.value).toBe('word');
  });

  it('tells onChange of a format as of typing', () => {
    const onChange = vi.fn();
    const { textarea } = renderField('word', { onChange });
    select(textarea, 0, 4);
    fireEvent.click(screen.getByRole('button', { name: 'Italic' }));
    expect(onChange).toHaveBeenLastCalledWith('*word*');
  });

  it('has a labelled toolbar that is one tab stop, walked with the arrow keys', () => {
    renderField();
    const toolbar = screen.getByRole('toolbar', { name: 'Formatting' });
    const buttons = Array.from(toolbar.querySelectorAll('button'));
    expect(buttons.map((button) => button.getAttribute('aria-label'))).toEqual([
      'Heading',
      'Bold',
      'Italic',
      'Link',
      'Bulleted list',
      'Numbered list',
    ]);
    expect(buttons.filter((button) => button.tabIndex === 0)).toHaveLength(1);
    buttons[0]!.focus();
    fireEvent.keyDown(toolbar, { key: 'ArrowRight' });
    expect(buttons[1]).toHaveFocus();
    expect(buttons[1]!.tabIndex).toBe(0);
    expect(buttons[0]!.tabIndex).toBe(-1);
    fireEvent.keyDown(toolbar, { key: 'ArrowLeft' });
    fireEvent.keyDown(toolbar, { key: 'ArrowLeft' });
    expect(buttons[5]).toHaveFocus(); // wraps
    fireEvent.keyDown(toolbar, { key: 'Home' });
    expect(buttons[0]).toHaveFocus();
    fireEvent.keyDown(toolbar, { key: 'End' });
    expect(buttons[5]).toHaveFocus();
  });

  it('swaps the arrow keys in a right-to-left page', () => {
    renderTranslated(
      <div dir="rtl">
        <MarkdownField label="التعليمات" limit={100} />
      </div>,
    );
    const toolbar = screen.getByRole('toolbar');
    const buttons = Array.from(toolbar.querySelectorAll('button'));
    buttons[0]!.focus();
    fireEvent.keyDown(toolbar, { key: 'ArrowLeft' });
    expect(buttons[1]).toHaveFocus();
  });

  it('previews the text with the safe renderer, and goes back to writing', async () => {
    const { textarea } = renderField('**Due** Friday <script>alert(1)</script> [x](javascript:alert(1))');
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect(screen.getByRole('button', { name: 'Preview' })).toHaveAttribute('aria-pressed', 'true');
    expect(textarea).not.toBeVisible();
    expect(screen.queryByRole('toolbar')).toBeNull();
    const preview = screen.getByRole('region', { name: 'Preview' });
    await waitFor(() => expect(preview.querySelector('strong')).toHaveTextContent('Due'));
    expect(preview.querySelector('script, a')).toBeNull();
    expect(preview.textContent).toContain('<script>alert(1)</script>');
    // Still sent with the form while previewed.
    expect(new FormData(textarea.form!).get('instructions')).toContain('**Due**');

    fireEvent.click(screen.getByRole('button', { name: 'Write' }));
    expect(textarea).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Preview' })).toBeNull();
  });

  it('goes back to Write when a new problem shows at the text', () => {
    const { rerender } = renderTranslated(<MarkdownField label="Instructions" limit={10} defaultValue="x" />);
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect(screen.getByRole('textbox', { hidden: true })).not.toBeVisible();
    rerender(<MarkdownField label="Instructions" limit={10} defaultValue="x" error="Too long" />);
    expect(screen.getByRole('textbox', { name: 'Instructions' })).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'Instructions' })).toHaveAccessibleDescription(/Too long/);
  });

  it('says when there is nothing to preview', () => {
    renderField();
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect(screen.getByText('Nothing to preview yet.')).toBeInTheDocument();
  });

  it('counts the characters against the limit, tied to the text box', () => {
    const { textarea } = renderField('12345', { limit: 10 });
    const count = screen.getByText('Characters: 5 of 10');
    expect(textarea.getAttribute('aria-describedby')?.split(' ')).toContain(count.id);
    fireEvent.change(textarea, { target: { value: '123456789012' } });
    const over = screen.getByText('Characters: 12 of 10 (2 too many)');
    expect(over).toHaveClass('text-danger');
  });

  it('says its texts in the chosen language', async () => {
    const { messages } = (await import('../locales/es/messages.po')) as { messages: Record<string, string> };
    renderTranslated(<MarkdownField label="Instrucciones" limit={10000} defaultValue="abc" />, {
      locale: 'es',
      messages,
    });
    expect(screen.getByRole('toolbar', { name: 'Formato' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Negrita' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Vista previa' })).toBeInTheDocument();
    expect(screen.getByText(/^Caracteres: 3 de 10\.000$/)).toBeInTheDocument();
  });
});
