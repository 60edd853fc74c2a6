import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BoardStroke } from '#shared/class-boards';
import { buildPdf, exportBoardPdf, exportPagePng } from './board-export.ts';
import { PagePainter, fitPage, lineWidthAt, paintBoardStrokes, strokesAt, thinned } from './board-render.ts';

/**
 * The class board's painting and export (issue 35). jsdom draws nothing: a recording context
 * stands in for the canvas's, and toBlob answers bytes of the type asked, so what is checked is
 * what the code asks of a canvas and the files it writes around the pictures.
 */

type Call = [name: string, ...args: unknown[]];

function recordingContext(canvas: HTMLCanvasElement) {
  const calls: Call[] = [];
  const record =
    (name: string) =>
    (...args: unknown[]) =>
      void calls.push([name, ...args]);
  const context = {
    canvas,
    calls,
    lineCap: '',
    lineJoin: '',
    lineWidth: 1,
    strokeStyle: '',
    fillStyle: '',
    beginPath: record('beginPath'),
    moveTo: record('moveTo'),
    lineTo: record('lineTo'),
    quadraticCurveTo: record('quadraticCurveTo'),
    stroke: record('stroke'),
    fillRect: record('fillRect'),
    setTransform: record('setTransform'),
    save: record('save'),
    restore: record('restore'),
    clearRect: record('clearRect'),
  };
  return context;
}

/** Canvases with a recording context, whose toBlob gives `bytes` of the type asked. */
function standInCanvases() {
  const contexts: ReturnType<typeof recordingContext>[] = [];
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (this: HTMLCanvasElement) {
    const context = recordingContext(this);
    contexts.push(context);
    return context as unknown as CanvasRenderingContext2D;
  });
  vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(function (callback, type) {
    const signature =
      type === 'image/png' ? [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] : [0xff, 0xd8, 0xff, 0xe0, 0xff, 0xd9];
    callback(new Blob([new Uint8Array(signature)], { type: type ?? 'image/png' }));
  });
  return contexts;
}

afterEach(() => {
  vi.restoreAllMocks();
});

let counter = 0;
const stroke = (colour: string, width: number, points: number[]): BoardStroke => ({
  id: `s${(counter += 1)}`,
  author: '00000000-0000-4000-8000-000000000000',
  colour,
  width,
  points,
});

const count = (calls: Call[], name: string) => calls.filter(([called]) => called === name).length;

describe('painting a page', () => {
  it('strokes each line as its own path, setting the paint only when it changes', () => {
    const contexts = standInCanvases();
    const context = document.createElement('canvas').getContext('2d')!;
    const strokes = [
      stroke('#000000', 2, [0, 0, 10, 10, 20, 0]),
      stroke('#000000', 2, [5, 5]),
      stroke('#ff0000', 2, [0, 0, 100, 100]),
      stroke('#000000', 2, [0, 0, 1, 1]),
    ];
    paintBoardStrokes(context, strokes);
    const { calls } = contexts[0]!;
    expect(count(calls, 'beginPath')).toBe(4);
    expect(count(calls, 'stroke')).toBe(4);
    expect(count(calls, 'moveTo')).toBe(4);
    // Width in CSS pixels, the context in board units (a tenth of a pixel).
    expect(context.lineWidth).toBe(20);
  });

  it('leaves out the points nearer than two pixels at the scale painted, never the ends', () => {
    const contexts = standInCanvases();
    const context = document.createElement('canvas').getContext('2d')!;
    // 11 points 10 units apart: at 0.05 pixels a unit, 40 units make two pixels.
    const points = Array.from({ length: 11 }, (_, index) => [index * 10, 0]).flat();
    paintBoardStrokes(context, [stroke('#000000', 2, points)], 0, 0.05);
    const drawn = contexts[0]!.calls.filter(([name]) => name !== 'beginPath' && name !== 'stroke');
    expect(drawn[0]).toEqual(['moveTo', 0, 0]);
    expect(drawn.at(-1)).toEqual(['lineTo', 100, 0]);
    // 0, 40, 80 kept, and the last (100): 4 points, not 11.
    expect(drawn).toHaveLength(4 - 1 + 1);
    expect(thinned(points, 30)).toEqual([0, 0, 30, 0, 60, 0, 90, 0, 100, 0]);
    // At full size nothing is left out.
    expect(thinned(points, 1.5)).toEqual(points);
  });

  it('draws a line between one and one and a half device pixels wide one pixel wide, others as they are', () => {
    // A page fitted to a laptop: 0.0439 device pixels a unit. 3 px: 1.3 device pixels, drawn as 1.
    expect(lineWidthAt(3, 0.0439) * 0.0439).toBeCloseTo(1, 2);
    // The first pen (5 px: 2.2 device pixels), and 1 px (0.44: already a hairline): unchanged.
    expect(lineWidthAt(5, 0.0439)).toBe(50);
    expect(lineWidthAt(1, 0.0439)).toBe(10);
    // At a tenth of a pixel a unit (the PNG's sheet is drawn at twice that): 1 px is exactly one, 3 px three.
    expect(lineWidthAt(1, 0.1)).toBe(10);
    expect(lineWidthAt(3, 0.1)).toBe(30);
    const contexts = standInCanvases();
    const context = document.createElement('canvas').getContext('2d')!;
    paintBoardStrokes(context, [stroke('#000000', 3, [0, 0, 100, 100])], 0, 0.0439);
    expect(contexts[0]!.lineWidth * 0.0439).toBeCloseTo(1, 2);
  });

  it('paints 20,000 strokes of a page in well under a second', () => {
    standInCanvases();
    const context = document.createElement('canvas').getContext('2d')!;
    const colours = ['#000000', '#ff0000', '#0000ff'];
    const strokes = Array.from({ length: 20_000 }, (_, index) =>
      stroke(
        colours[Math.floor(index / 50) % 3]!,
        3,
        Array.from({ length: 40 }, (__, point) => (index * 7 + point * 13) % 16_000),
      ),
    );
    const started = performance.now();
    new PagePainter(context).show('p', strokes, fitPage(1280, 800), 2);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('paints only the strokes added at the end, and the whole page after an erase', () => {
    const contexts = standInCanvases();
    const context = document.createElement('canvas').getContext('2d')!;
    const painter = new PagePainter(context);
    const fit = fitPage(800, 500);
    const first = [stroke('#000000', 2, [0, 0, 10, 10]), stroke('#000000', 2, [20, 20, 30, 30])];
    painter.show('p', first, fit, 1);
    const { calls } = contexts[0]!;
    calls.length = 0;
    const added = [...first, stroke('#000000', 2, [40, 40, 50, 50])];
    painter.show('p', added, fit, 1);
    expect(count(calls, 'moveTo')).toBe(1);
    expect(count(calls, 'fillRect')).toBe(0);
    calls.length = 0;
    painter.show('p', [added[0]!, added[2]!], fit, 1);
    expect(count(calls, 'fillRect')).toBe(1);
    expect(count(calls, 'moveTo')).toBe(2);
  });

  it('finds the strokes the eraser passes over, counting their width', () => {
    const line = stroke('#000000', 4, [0, 0, 1000, 0]);
    const dot = stroke('#000000', 2, [5000, 5000]);
    expect(strokesAt([line, dot], 500, 30, 10)).toEqual([line]);
    expect(strokesAt([line, dot], 500, 60, 10)).toEqual([]);
    expect(strokesAt([line, dot], 5005, 5005, 10)).toEqual([dot]);
  });
});

describe('exporting the board', () => {
  it('gives a page as a PNG picture', async () => {
    standInCanvases();
    const blob = await exportPagePng([stroke('#123456', 3, [0, 0, 100, 100])]);
    expect(blob.type).toBe('image/png');
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect([...bytes.slice(1, 4)].map((byte) => String.fromCharCode(byte)).join('')).toBe('PNG');
  });

  it('gives the whole board as a PDF of one page each', async () => {
    standInCanvases();
    const blob = await exportBoardPdf([[stroke('#000000', 3, [0, 0, 10, 10])], [], [stroke('#ff0000', 1, [5, 5])]]);
    expect(blob.type).toBe('application/pdf');
    const text = new TextDecoder('latin1').decode(await blob.arrayBuffer());
    expect(text.startsWith('%PDF-1.4')).toBe(true);
    expect(text).toContain('/Count 3');
    expect(text.match(/\/Type \/Page /g)).toHaveLength(3);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
  });

  it('writes a cross-reference table whose offsets point at their objects', () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 0x00, 0x0a, 0xff, 0xd9]);
    const file = buildPdf([
      { jpeg, width: 4, height: 2 },
      { jpeg, width: 4, height: 2 },
    ]);
    const text = new TextDecoder('latin1').decode(file);
    const startxref = Number(/startxref\n(\d+)/.exec(text)![1]);
    expect(text.slice(startxref, startxref + 4)).toBe('xref');
    const rows = text
      .slice(startxref)
      .split('\n')
      .slice(3, 3 + 8);
    rows.forEach((row, index) => {
      const offset = Number(row.slice(0, 10));
      expect(text.slice(offset, offset + `${index + 1} 0 obj`.length)).toBe(`${index + 1} 0 obj`);
    });
    expect(text).toContain('/Filter /DCTDecode /Length 6');
  });
});
