/**
 * Text on a coloured label (a cursor's name on the class board, issue 35): dark or white,
 * whichever stands out more from the fill (WCAG 2's contrast ratio), so a 12 px name reads at
 * 4.5:1 or better on any colour, the light yellows and greens too.
 */

/** The dark text on a light fill: the app's near-black. */
export const LABEL_DARK = '#111827';
export const LABEL_LIGHT = '#ffffff';

/** WCAG 2's relative luminance of a #rrggbb colour (0 black, 1 white). */
function luminanceOf(hex: string): number {
  const channel = (offset: number) => {
    const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.040_45 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2's contrast ratio of two #rrggbb colours, 1 to 21. */
export function contrastRatio(first: string, second: string): number {
  const [lighter, darker] = [luminanceOf(first), luminanceOf(second)].sort((a, b) => b - a) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

/** The text colour for a label filled with `fill` (#rrggbb; anything else gets the dark text). */
export function labelTextColour(fill: string): string {
  if (!/^#[\da-f]{6}$/i.test(fill)) return LABEL_DARK;
  return contrastRatio(fill, LABEL_LIGHT) >= contrastRatio(fill, LABEL_DARK) ? LABEL_LIGHT : LABEL_DARK;
}
