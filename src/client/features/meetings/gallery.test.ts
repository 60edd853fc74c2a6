import { describe, expect, it } from 'vitest';
import { clientMessageSchema } from '#shared/meetings';
import { cameraLayer, currentSpeaker, galleryPage, inGalleryOrder } from './gallery.ts';

describe('the gallery', () => {
  it('pages the others, clamping to the last page', () => {
    const people = Array.from({ length: 30 }, (_, index) => index);
    expect(galleryPage(people, 0, 8)).toEqual({ page: 0, pageCount: 4, shown: [0, 1, 2, 3, 4, 5, 6, 7] });
    expect(galleryPage(people, 3, 8)).toEqual({ page: 3, pageCount: 4, shown: [24, 25, 26, 27, 28, 29] });
    expect(galleryPage(people, 9, 8).page).toBe(3);
    expect(galleryPage([], 2, 8)).toEqual({ page: 0, pageCount: 1, shown: [] });
  });

  it('puts the class’s teachers first, then the others as they came', () => {
    const people = [
      { id: 'a', host: false },
      { id: 't', host: true },
      { id: 'b', host: false },
      { id: 'u', host: true },
    ];
    expect(inGalleryOrder(people).map((person) => person.id)).toEqual(['t', 'u', 'a', 'b']);
  });

  it('shows whoever speaks, else the last speaker still here, else the first', () => {
    const remotes = [{ id: 'a' }, { id: 'b' }, { id: 'c' }] as unknown as Parameters<typeof currentSpeaker>[0];
    expect(currentSpeaker(remotes, new Set(['c']), 'b')?.id).toBe('c');
    expect(currentSpeaker(remotes, new Set(), 'b')?.id).toBe('b');
    expect(currentSpeaker(remotes, new Set(), 'gone')?.id).toBe('a');
  });
});

describe('the camera layer the screen asks for', () => {
  it('is full size for one large tile, half for a few, a quarter for a page of small ones', () => {
    expect(cameraLayer('speaker', 1, true, false)).toBe('high');
    expect(cameraLayer('gallery', 1, true, false)).toBe('high');
    expect(cameraLayer('gallery', 4, true, false)).toBe('medium');
    expect(cameraLayer('gallery', 8, true, false)).toBe('low');
    // A phone shows three at most, each the screen's width.
    expect(cameraLayer('gallery', 3, false, false)).toBe('medium');
  });

  it('is a quarter on a weak link, whatever the layout', () => {
    expect(cameraLayer('speaker', 1, true, true)).toBe('low');
    expect(cameraLayer('gallery', 3, false, true)).toBe('low');
  });

  it('is part of what the page tells the server, which refuses any other', () => {
    const view = { type: 'sfu-view', cameras: ['participant-1'] };
    expect(clientMessageSchema.safeParse({ ...view, layer: 'low' }).success).toBe(true);
    expect(clientMessageSchema.safeParse({ ...view, layer: 'ultra' }).success).toBe(false);
    expect(clientMessageSchema.safeParse(view).success).toBe(false);
  });
});
