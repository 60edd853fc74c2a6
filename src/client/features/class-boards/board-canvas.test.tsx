import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BoardStroke } from '#shared/class-boards';
import { renderTranslated } from '../../testing/render-translated.tsx';
import { BoardCanvas, FIRST_TOOL, type BoardTool } from './board-canvas.tsx';
import { contrastRatio, labelTextColour } from './board-contrast.ts';
import type { BoardPeer, BoardSession } from './board-model.ts';

/**
 * The class board's sheet (issue 35) without a server: a line goes to the page it began on, and
 * the others' names read on their colours. jsdom paints nothing: the canvases have no context.
 */

function aSession() {
  return {
    addStroke: vi.fn(() => 'stroke'),
    eraseStrokes: vi.fn(),
    setCursor: vi.fn(),
  } as unknown as BoardSession & { addStroke: ReturnType<typeof vi.fn>; eraseStrokes: ReturnType<typeof vi.fn> };
}

const stroke = (id: string, points: number[]): BoardStroke => ({
  id,
  author: 'someone',
  colour: '#000000',
  width: 5,
  points,
});

function sheet(
  session: BoardSession,
  pageId: string,
  {
    strokes = [],
    peers = [],
    tool = FIRST_TOOL,
  }: { strokes?: BoardStroke[]; peers?: BoardPeer[]; tool?: BoardTool } = {},
) {
  return (
    <BoardCanvas
      session={session}
      pageId={pageId}
      pageName={pageId}
      strokes={strokes}
      tool={tool}
      canDraw
      peers={peers}
      showCursors
      isLoaded
    />
  );
}

const pointer = { pointerId: 1, isPrimary: true, pointerType: 'pen', button: 0 };

beforeEach(() => {
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the board’s sheet', () => {
  it('puts a line on the page it began on, when another page is on show at pen up', () => {
    const session = aSession();
    const { rerender } = renderTranslated(sheet(session, 'first'));
    const input = screen.getByTestId('board-input');
    fireEvent.pointerDown(input, { ...pointer, clientX: 10, clientY: 10 });
    fireEvent.pointerMove(input, { ...pointer, clientX: 40, clientY: 30 });
    // The page was deleted or moved meanwhile: another one is on show.
    rerender(sheet(session, 'second'));
    fireEvent.pointerMove(input, { ...pointer, clientX: 60, clientY: 50 });
    fireEvent.pointerUp(input, { ...pointer, clientX: 60, clientY: 50 });
    expect(session.addStroke).toHaveBeenCalledTimes(1);
    expect(session.addStroke.mock.calls[0]![0]).toBe('first');
  });

  it('erases on the page the eraser began on, and nothing of the page on show after', () => {
    const session = aSession();
    const tool = { ...FIRST_TOOL, mode: 'eraser' as const };
    const near = stroke('near', [0, 0, 400, 400]);
    const render = (pageId: string, strokes: BoardStroke[]) => sheet(session, pageId, { strokes, tool });
    const { rerender } = renderTranslated(render('first', [near]));
    const input = screen.getByTestId('board-input');
    fireEvent.pointerDown(input, { ...pointer, clientX: 0, clientY: 0 });
    rerender(render('second', [stroke('other', [0, 0, 400, 400])]));
    fireEvent.pointerMove(input, { ...pointer, clientX: 1, clientY: 1 });
    fireEvent.pointerUp(input, { ...pointer, clientX: 1, clientY: 1 });
    expect(session.eraseStrokes).toHaveBeenCalledWith('first', ['near']);
  });

  it('writes the others’ names in a colour that reads on their cursor’s (4.5:1 at least)', () => {
    const palette = ['#dc2626', '#ea580c', '#ca8a04', '#16a34a', '#0891b2', '#2563eb', '#7c3aed', '#db2777'];
    for (const fill of palette) expect(contrastRatio(fill, labelTextColour(fill))).toBeGreaterThanOrEqual(4.5);
    const peer: BoardPeer = {
      clientId: 7,
      userId: 'u',
      name: 'Amal',
      teacher: false,
      colour: '#ca8a04',
      cursor: { pageId: 'first', x: 100, y: 100 },
    };
    renderTranslated(sheet(aSession(), 'first', { peers: [peer] }));
    const label = screen.getByText('Amal').parentElement!;
    expect(label.style.color).not.toBe('rgb(255, 255, 255)');
    expect(label).not.toHaveClass('text-white');
  });
});
