import { afterEach, describe, expect, it } from 'vitest';
import { cn, setClassCheck } from '../lib/cn.ts';
import { throwOnClassConflicts } from './class-conflicts.ts';

describe('the class check of the component tests', () => {
  afterEach(() => setClassCheck(null));

  it('throws on two utilities of one property, naming the one that loses', () => {
    setClassCheck(throwOnClassConflicts);
    expect(() => cn('px-4', 'px-3')).toThrow(/px-4 set a property .* "px-4 px-3"/);
    const isArchived = true;
    expect(() => cn('rounded-xl border bg-surface', isArchived && 'bg-surface-sunken')).toThrow(/^cn\(\): bg-surface /);
  });

  it('lets different properties, variants and repeats through', () => {
    setClassCheck(throwOnClassConflicts);
    expect(() => cn('bg-surface px-4 py-2.5', 'mt-2 hover:bg-surface-muted max-sm:px-0', 'px-4')).not.toThrow();
  });

  it('joins without merging when no check is registered (the bundle)', () => {
    expect(cn('px-4', 'px-3')).toBe('px-4 px-3');
  });
});
