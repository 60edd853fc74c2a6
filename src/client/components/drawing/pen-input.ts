/** What the whiteboards (the personal one and the class board) read from a pen and a colour field. */

export const isHexColour = (value: string): boolean => /^#[0-9a-f]{6}$/i.test(value);

/**
 * The eraser end of a pen (Pointer Events: button 5 when it touches, bit 32 of
 * `buttons` while it is down): it erases like the Erase tool, for that stroke.
 */
export const isEraserButton = (pointer: { button: number; buttons: number }): boolean =>
  pointer.button === 5 || (pointer.buttons & 32) !== 0;
