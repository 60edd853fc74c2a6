import confetti from 'canvas-confetti';
import { CONFETTI_PIECES } from '#shared/quizzes';

/**
 * Confetti on `canvas` (reduced motion: none). Its own module, imported when a submitted result
 * is worth celebrating, so the quiz screen does not download the library before (4 kB gzipped).
 * Returns what stops it.
 */
export function celebrateOn(canvas: HTMLCanvasElement): () => void {
  const celebrate = confetti.create(canvas, { resize: true, disableForReducedMotion: true });
  void celebrate({ particleCount: CONFETTI_PIECES, spread: 80, origin: { y: 0.4 } });
  return () => celebrate.reset();
}
