import type { ReactNode } from 'react';

/**
 * How a live game tells its answers apart (decision 066), on the phones and on the projector: the
 * option's place in the game's one shuffled order gives it a colour and a shape, and its text goes
 * with them. Never the colour alone: a colour-blind player, or a projector that washes the colours
 * out, still has the shape ("the triangle") and the words. Ten shapes, as a question has at most
 * ten options (QUESTION_LIMITS.optionsMax); the four colours repeat. The shapes are drawn here (a
 * path each) rather than taken from the icon set: ten icons' chunks cost the phone more.
 */
const SHAPES = [
  'M12 2.5 22.5 21h-21Z', // triangle
  'M12 1.5 22.5 12 12 22.5 1.5 12Z', // diamond
  'M12 2a10 10 0 1 0 0 20 10 10 0 1 0 0-20Z', // circle
  'M3 3h18v18H3Z', // square
  'm12 1.5 3.1 6.8 7.4.8-5.5 5 1.6 7.3L12 17.7l-6.6 3.7L7 14.1l-5.5-5 7.4-.8Z', // star
  'M12 1.5 22.5 9.2l-4 12.3h-13l-4-12.3Z', // pentagon
  'M6.5 2.5h11L23 12l-5.5 9.5h-11L1 12Z', // hexagon
  'M12 21.5 3 12.6A5.3 5.3 0 0 1 12 5.2a5.3 5.3 0 0 1 9 7.4Z', // heart
  'M8 1.5h8L22.5 8v8L16 22.5H8L1.5 16V8Z', // octagon
  'M9 1.5h6v7.5h7.5v6H15v7.5H9V15H1.5V9H9Z', // cross
];
const FILLS = ['bg-answer-1', 'bg-answer-2', 'bg-answer-3', 'bg-answer-4'] as const;

type ShapeProps = { className?: string; 'aria-hidden'?: boolean | 'true' | 'false' };

/** One shape, in the text's colour; decorative (the text names the answer). */
function shapeOf(path: string) {
  return function AnswerShape({ className }: ShapeProps) {
    return (
      <svg viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false" className={className}>
        <path d={path} />
      </svg>
    );
  };
}
const SHAPE_COMPONENTS = SHAPES.map(shapeOf);

export type AnswerMark = { Shape: (props: ShapeProps) => ReactNode; fill: (typeof FILLS)[number] };

/** The colour (a fill class, white text on it) and the shape of the answer at `index`. */
export function answerMark(index: number): AnswerMark {
  return { Shape: SHAPE_COMPONENTS[index % SHAPES.length]!, fill: FILLS[index % FILLS.length]! };
}
