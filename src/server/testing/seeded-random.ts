/**
 * mulberry32: a small seeded generator, so data, schedules and fuzzed inputs are the same on every
 * run (the benches' schools and exams, the class board's fuzz test).
 */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** A whole number in [0, bound). */
    below: (bound: number) => Math.floor(next() * bound),
    /** A number in [low, high). */
    between: (low: number, high: number) => low + next() * (high - low),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
  };
}
