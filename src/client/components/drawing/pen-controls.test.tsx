import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderTranslated } from '../../testing/render-translated.tsx';
import { Toolbar } from '../../features/canvas/toolbar.tsx';
import { BoardToolbar } from '../../features/class-boards/board-toolbar.tsx';

/**
 * The pen's colour and width tiles as the two toolbars word and wire them: the personal
 * whiteboard's brush (SPEC §2) and the class board's pen (issue 35).
 */

describe('the colour and width tiles', () => {
  it('are the whiteboard’s brush colour and size, the default size marked', () => {
    const onBrushChange = vi.fn();
    renderTranslated(
      <Toolbar
        brush={{ mode: 'draw', colour: '#3b3b3b', size: 3 }}
        status={{ canUndo: false, canRedo: false, isBlank: true }}
        onBrushChange={onBrushChange}
        onUndo={() => {}}
        onRedo={() => {}}
        onClear={() => {}}
        onSave={() => {}}
      />,
    );
    const colour = screen.getByLabelText('Brush colour');
    expect(colour).toHaveValue('#3b3b3b');
    expect(colour.closest('label')).toHaveTextContent(/^Colour$/);
    fireEvent.change(colour, { target: { value: '#ff0000' } });
    expect(onBrushChange).toHaveBeenLastCalledWith({ type: 'colour', colour: '#ff0000' });

    const size = screen.getByRole('combobox', { name: 'Brush size' });
    expect(size).toHaveValue('3');
    expect(size.closest('label')?.firstChild).toHaveTextContent(/^Size$/);
    expect(screen.getByRole('option', { name: '3 (default)' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: '30' })).toBeInTheDocument();
    fireEvent.change(size, { target: { value: '15' } });
    expect(onBrushChange).toHaveBeenLastCalledWith({ type: 'size', size: 15 });
  });

  it('are the board’s pen colour and width: a colour takes the pen, in small letters', () => {
    const onToolChange = vi.fn();
    renderTranslated(
      <BoardToolbar
        tool={{ mode: 'eraser', colour: '#3b3b3b', width: 5 }}
        onToolChange={onToolChange}
        canDraw
        canUndo={false}
        canRedo={false}
        onUndo={() => {}}
        onRedo={() => {}}
        onClearPage={() => {}}
        pageId="page-1"
        pageName="Page 1"
        canUndoClear
        isExporting={false}
        onExportPng={() => {}}
        onExportPdf={() => {}}
        showCursors
        onShowCursorsChange={() => {}}
      />,
    );
    const colour = screen.getByLabelText('Pen colour');
    expect(colour.closest('label')).toHaveTextContent(/^Colour$/);
    fireEvent.change(colour, { target: { value: '#AA00FF' } });
    expect(onToolChange).toHaveBeenLastCalledWith({ mode: 'pen', colour: '#aa00ff', width: 5 });

    const width = screen.getByRole('combobox', { name: 'Pen width' });
    expect(width).toHaveValue('5');
    expect(width.closest('label')?.firstChild).toHaveTextContent(/^Width$/);
    expect(screen.queryByRole('option', { name: /default/ })).toBeNull();
    fireEvent.change(width, { target: { value: '12' } });
    expect(onToolChange).toHaveBeenLastCalledWith({ mode: 'eraser', colour: '#3b3b3b', width: 12 });
  });
});
