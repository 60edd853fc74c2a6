import { useCallback, useSyncExternalStore } from 'react';

const subscribe = (onChange: () => void) => {
  document.addEventListener('fullscreenchange', onChange);
  return () => document.removeEventListener('fullscreenchange', onChange);
};
const isFullscreenNow = () => document.fullscreenElement !== null;

/**
 * Whether the page is in full screen, and a request for it (and its way out). `isSupported` is
 * false where the Fullscreen API is missing or refused for pages (iPhone Safari, some embedded
 * browsers): the study mode must not block a student who cannot comply, and the live game's
 * projector hides its "Full screen" there.
 */
export function useFullscreen() {
  const isFullscreen = useSyncExternalStore(subscribe, isFullscreenNow, () => false);
  const isSupported = typeof document !== 'undefined' && document.fullscreenEnabled === true;
  const requestFullscreen = useCallback(async () => {
    if (document.fullscreenElement) return;
    await document.documentElement.requestFullscreen({ navigationUI: 'hide' });
  }, []);
  const exitFullscreen = useCallback(async () => {
    if (!document.fullscreenElement) return;
    await document.exitFullscreen();
  }, []);
  return { isFullscreen, isSupported, requestFullscreen, exitFullscreen };
}
