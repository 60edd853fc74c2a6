import { describe, expect, it } from 'vitest';
import {
  BRUSH_SIZE_CHOICES,
  BRUSH_SIZES,
  DEFAULT_BRUSH_SIZE,
  DRAW_COLOUR,
  INITIAL_BRUSH,
  brushReducer,
  cursorFor,
  isEraserButton,
} from './brush.ts';

describe('brush (SPEC §4 and §9)', () => {
  it('starts drawing in dark grey at the default size 3, which the size menu offers beside the listed sizes', () => {
    expect(INITIAL_BRUSH).toEqual({ mode: 'draw', colour: '#3b3b3b', size: 3 });
    expect(BRUSH_SIZES).not.toContain(DEFAULT_BRUSH_SIZE);
    expect(BRUSH_SIZE_CHOICES).toEqual([1, 3, 5, 10, 15, 20, 25, 30]);
  });

  it('Draw resets the colour and the default cursor; Erase paints white with a grab cursor', () => {
    const erasing = brushReducer({ ...INITIAL_BRUSH, colour: '#00ff00', size: 20 }, { type: 'erase' });
    expect(erasing).toEqual({ mode: 'erase', colour: '#ffffff', size: 20 });
    expect(cursorFor(erasing.mode)).toBe('grab');
    const drawing = brushReducer({ ...erasing }, { type: 'draw' });
    expect(drawing).toEqual({ mode: 'draw', colour: DRAW_COLOUR, size: 20 });
    expect(cursorFor(drawing.mode)).toBe('default');
  });

  it('choosing a colour draws with it; sizes and colours outside the menu are ignored', () => {
    const erasing = brushReducer(INITIAL_BRUSH, { type: 'erase' });
    expect(brushReducer(erasing, { type: 'colour', colour: '#AA00FF' })).toMatchObject({
      mode: 'draw',
      colour: '#aa00ff',
    });
    expect(brushReducer(INITIAL_BRUSH, { type: 'colour', colour: 'red' })).toBe(INITIAL_BRUSH);
    expect(brushReducer(INITIAL_BRUSH, { type: 'size', size: 30 }).size).toBe(30);
    expect(brushReducer(INITIAL_BRUSH, { type: 'size', size: 7 })).toBe(INITIAL_BRUSH);
  });

  it("takes a pen's eraser end for erasing: button 5 when it touches, bit 32 of buttons while down", () => {
    expect(isEraserButton({ button: 5, buttons: 32 })).toBe(true);
    expect(isEraserButton({ button: -1, buttons: 32 })).toBe(true);
    // The pen's tip, a mouse, a finger, a barrel button.
    expect(isEraserButton({ button: 0, buttons: 1 })).toBe(false);
    expect(isEraserButton({ button: 2, buttons: 2 })).toBe(false);
    expect(isEraserButton({ button: -1, buttons: 0 })).toBe(false);
  });
});
