import { i18n, type Messages } from '@lingui/core';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderTranslated } from '../../testing/render-translated.tsx';
import { FIRST_TOOL } from './board-canvas.tsx';
import { BoardToolbar } from './board-toolbar.tsx';
import { refusalText } from './board-texts.ts';

/** The class board's tools (issue 35) on their own: the question before a page is cleared. */

function toolbar(page: { id: string; name: string }, onClearPage: (pageId: string) => void, canUndoClear = true) {
  return (
    <BoardToolbar
      tool={FIRST_TOOL}
      onToolChange={() => {}}
      canDraw
      canUndo={false}
      canRedo={false}
      onUndo={() => {}}
      onRedo={() => {}}
      onClearPage={onClearPage}
      pageId={page.id}
      pageName={page.name}
      canUndoClear={canUndoClear}
      isExporting={false}
      onExportPng={() => {}}
      onExportPdf={() => {}}
      showCursors
      onShowCursorsChange={() => {}}
    />
  );
}

describe('clearing a page', () => {
  it('clears the page asked about, when another is on show by the answer', async () => {
    const user = userEvent.setup();
    const onClearPage = vi.fn();
    const { rerender } = renderTranslated(toolbar({ id: 'first', name: 'Page 1' }, onClearPage));
    await user.click(screen.getByRole('button', { name: 'Clear page' }));
    const question = await screen.findByRole('alertdialog', { name: 'Clear the page “Page 1”?' });
    // Someone deleted or moved the page meanwhile: another is on show.
    rerender(toolbar({ id: 'second', name: 'Page 2' }, onClearPage));
    expect(screen.getByRole('alertdialog', { name: 'Clear the page “Page 1”?' })).toBe(question);
    await user.click(within(question).getByRole('button', { name: 'Clear page' }));
    expect(onClearPage).toHaveBeenCalledExactlyOnceWith('first');
  });

  it('says undo brings the strokes back only when this person’s undo can', async () => {
    const user = userEvent.setup();
    renderTranslated(toolbar({ id: 'first', name: 'Page 1' }, () => {}, false));
    await user.click(screen.getByRole('button', { name: 'Clear page' }));
    const question = await screen.findByRole('alertdialog');
    expect(question).not.toHaveTextContent('Undo brings them back');
    expect(question).toHaveTextContent('Some are other people’s: your Undo cannot bring this back.');
  });
});

describe('moving through the tools by keyboard', () => {
  it('is one tab stop among its buttons; the arrows, Home and End move between them', async () => {
    const user = userEvent.setup();
    renderTranslated(toolbar({ id: 'first', name: 'Page 1' }, () => {}));
    const tools = screen.getByRole('toolbar', { name: 'Board tools' });
    const buttons = within(tools).getAllByRole('button');
    const draw = screen.getByRole('button', { name: 'Draw' });
    expect(buttons.filter((button) => button.tabIndex === 0)).toEqual([draw]);
    await user.tab();
    expect(draw).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('button', { name: 'Erase' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('button', { name: 'Cursors' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(draw).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('button', { name: 'Cursors' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(draw).toHaveFocus();
    // The last button reached is the toolbar's tab stop from then on.
    await user.keyboard('{ArrowRight}');
    expect(buttons.filter((button) => button.tabIndex === 0)).toEqual([screen.getByRole('button', { name: 'Erase' })]);
  });
});

describe('a refused change', () => {
  it('is worded by its reason: too large is not a full board', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    expect(i18n._(refusalText('TOO_LARGE'))).toBe('That change is too large to send at once: it was not kept.');
    expect(i18n._(refusalText('BOARD_FULL'))).toBe('The board is full: erase some strokes to make room.');
    expect(i18n._(refusalText('PAGES_FULL'))).toBe('The board has the most pages it can hold: delete one first.');
  });
});

describe('in Spanish', () => {
  it('words the question and a refusal from the catalog, none left empty', async () => {
    const user = userEvent.setup();
    const { messages } = (await import('../../locales/es/messages.po')) as { messages: Messages };
    renderTranslated(
      toolbar({ id: 'first', name: 'Página 1' }, () => {}, false),
      { locale: 'es', messages },
    );
    await user.click(screen.getByRole('button', { name: 'Limpiar página' }));
    const question = await screen.findByRole('alertdialog');
    expect(question).toHaveTextContent('Algunos son de otras personas: tu Deshacer no puede recuperarlos.');
    expect(i18n._(refusalText('TOO_LARGE'))).toBe(
      'Ese cambio es demasiado grande para enviarlo de una vez: no se guardó.',
    );
  });
});
