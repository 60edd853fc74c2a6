import { useEffect, useState, useSyncExternalStore } from 'react';
import type { CameraLayer } from '#shared/meetings';
import type { MeetingSession, MeetingSnapshot, RemoteParticipant } from './meeting-session.ts';

/**
 * Which of the others are on screen (decision 037): a class of 30 does not fit one grid, and in
 * an SFU room only the cameras on screen are received, so a laptop decodes a page of them, not
 * thirty. The gallery shows a page of people; the speaker view shows whoever spoke last, large.
 */
export type MeetingLayout = 'gallery' | 'speaker';

/** Others per gallery page, besides our own tile: a 3×3 grid on a wide screen, a column of 4 on a phone. */
export const GALLERY_PAGE_SIZE = { wide: 8, narrow: 3 } as const;
const WIDE_SCREEN = '(min-width: 640px)';

const subscribeToWidth = (onChange: () => void) => {
  const query = window.matchMedia(WIDE_SCREEN);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
const isWideScreen = () => window.matchMedia(WIDE_SCREEN).matches;

/** The Network Information API, where the browser has it (Chromium; not Firefox or Safari). */
type NetworkInformation = EventTarget & { saveData?: boolean; effectiveType?: string };
const networkInformation = () => (navigator as Navigator & { connection?: NetworkInformation }).connection;
const subscribeToNetwork = (onChange: () => void) => {
  const connection = networkInformation();
  connection?.addEventListener('change', onChange);
  return () => connection?.removeEventListener('change', onChange);
};
/** The browser reports a slow link (3G or worse), or the person asked it to save data. */
const isWeakLink = () => {
  const connection = networkInformation();
  return Boolean(connection?.saveData) || ['slow-2g', '2g', '3g'].includes(connection?.effectiveType ?? '');
};

/**
 * The camera layer the tiles on screen need (an SFU room forwards that one of each camera's
 * simulcast layers): full size for one large tile, half for a few, a quarter for a page of
 * small ones; and a quarter whatever the layout on a weak link, so the sound keeps going.
 */
export function cameraLayer(layout: MeetingLayout, shownCount: number, isWide: boolean, isWeak: boolean): CameraLayer {
  if (isWeak) return 'low';
  if (layout === 'speaker' || shownCount <= 1) return 'high';
  return isWide && shownCount > 4 ? 'low' : 'medium';
}

/** The page `page` of `remotes` (clamped to the last page) and how many pages there are. */
export function galleryPage<T>(remotes: readonly T[], page: number, pageSize: number) {
  const pageCount = Math.max(1, Math.ceil(remotes.length / pageSize));
  const shownPage = Math.min(Math.max(0, page), pageCount - 1);
  return { page: shownPage, pageCount, shown: remotes.slice(shownPage * pageSize, (shownPage + 1) * pageSize) };
}

/**
 * The others in gallery order: the class's teachers first, then as they came. Rooms on several
 * instances list people in no set order, and a student must find the teacher on the first page
 * (only that page's cameras are received).
 */
export function inGalleryOrder<T extends { host: boolean }>(remotes: readonly T[]): T[] {
  return [...remotes.filter((remote) => remote.host), ...remotes.filter((remote) => !remote.host)];
}

/** The speaker to show: whoever speaks now (the first of them), else the last one who spoke, if still here. */
export function currentSpeaker(
  remotes: readonly RemoteParticipant[],
  speaking: ReadonlySet<string>,
  lastSpeakerId: string | null,
): RemoteParticipant | undefined {
  return (
    remotes.find((remote) => speaking.has(remote.id)) ??
    remotes.find((remote) => remote.id === lastSpeakerId) ??
    remotes[0]
  );
}

/** The layout, the page, the others on screen now, and the session told whose cameras those are. */
export function useGallery(session: MeetingSession, snapshot: MeetingSnapshot) {
  const [layout, setLayout] = useState<MeetingLayout>('gallery');
  const [requestedPage, setPage] = useState(0);
  const [lastSpeakerId, setLastSpeakerId] = useState<string | null>(null);
  const isWide = useSyncExternalStore(subscribeToWidth, isWideScreen);
  const isWeak = useSyncExternalStore(subscribeToNetwork, isWeakLink);
  const pageSize = isWide ? GALLERY_PAGE_SIZE.wide : GALLERY_PAGE_SIZE.narrow;

  const remotes = inGalleryOrder(snapshot.remotes);
  const speaker = currentSpeaker(remotes, snapshot.speaking, lastSpeakerId);
  // Remembered during render (React's pattern for state derived from props): once they stop, the
  // last speaker stays on screen rather than jumping back to the first person.
  if (speaker && speaker.id !== lastSpeakerId && snapshot.speaking.has(speaker.id)) setLastSpeakerId(speaker.id);

  const { page, pageCount, shown } =
    layout === 'speaker'
      ? { page: 0, pageCount: 1, shown: speaker ? [speaker] : [] }
      : galleryPage(remotes, requestedPage, pageSize);
  const shownKey = shown.map((remote) => remote.id).join(',');
  const layer = cameraLayer(layout, shown.length, isWide, isWeak);
  useEffect(() => {
    session.setVisibleCameras(shownKey ? shownKey.split(',') : [], layer);
  }, [session, shownKey, layer]);

  return { layout, setLayout, page, pageCount, setPage, shown };
}
