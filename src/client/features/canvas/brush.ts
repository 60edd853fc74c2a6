/**
 * Brush constants of SPEC §9 and the tool rules of SPEC §4. The constants are
 * used by the whiteboard only, so they live with it rather than in src/shared.
 */

import { isHexColour } from '../../components/drawing/pen-input.ts';

// Shared with the class board (components/drawing/pen-input.ts).
export { isEraserButton, isHexColour } from '../../components/drawing/pen-input.ts';

/** SPEC §9 brush sizes. */
export const BRUSH_SIZES = [1, 5, 10, 15, 20, 25, 30] as const;
/** SPEC §9 default size: not one of the listed sizes, so the size menu offers it too (decision 011). */
export const DEFAULT_BRUSH_SIZE = 3;
/** The size menu: the listed sizes and the default, in order. */
export const BRUSH_SIZE_CHOICES: readonly number[] = [...new Set([...BRUSH_SIZES, DEFAULT_BRUSH_SIZE])].sort(
  (a, b) => a - b,
);

/** SPEC §9 default brush colour (dark grey), also what Draw resets to. */
export const DRAW_COLOUR = '#3b3b3b';
/** SPEC §9 erase colour: erasing paints white. */
export const ERASE_COLOUR = '#ffffff';

/** SPEC §9: the drawing is stored this long after the last movement. */
export const AUTOSAVE_DELAY_MS = 400;
/** SPEC §9 file name of Save. */
export const SAVED_FILE_NAME = 'canvas_image.png';

export type BrushMode = 'draw' | 'erase';

export type Brush = { mode: BrushMode; colour: string; size: number };

export const INITIAL_BRUSH: Brush = { mode: 'draw', colour: DRAW_COLOUR, size: DEFAULT_BRUSH_SIZE };

export type BrushAction =
  { type: 'draw' } | { type: 'erase' } | { type: 'colour'; colour: string } | { type: 'size'; size: number };

/**
 * SPEC §4: Draw resets the colour to #3B3B3B (default cursor); Erase sets it
 * to white (grab cursor). Choosing a colour means drawing with it.
 */
export function brushReducer(brush: Brush, action: BrushAction): Brush {
  switch (action.type) {
    case 'draw':
      return { ...brush, mode: 'draw', colour: DRAW_COLOUR };
    case 'erase':
      return { ...brush, mode: 'erase', colour: ERASE_COLOUR };
    case 'colour':
      return isHexColour(action.colour) ? { ...brush, mode: 'draw', colour: action.colour.toLowerCase() } : brush;
    case 'size':
      return BRUSH_SIZE_CHOICES.includes(action.size) ? { ...brush, size: action.size } : brush;
  }
}

/** The canvas cursor of each mode (SPEC §4). */
export const cursorFor = (mode: BrushMode): string => (mode === 'erase' ? 'grab' : 'default');

/** The paint of a new stroke: erasing always paints white, whatever the colour field says. */
export const paintOf = (brush: Brush): { colour: string; size: number } => ({
  colour: brush.mode === 'erase' ? ERASE_COLOUR : brush.colour,
  size: brush.size,
});
