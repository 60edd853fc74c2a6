import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import rule, { physicalClass } from './logical-direction.js';
import { expect } from 'vitest';

RuleTester.describe = describe;
RuleTester.it = it;

describe('the logical-direction lint rule (issue 32 point 6)', () => {
  it('finds a physical class behind its variants', () => {
    expect(physicalClass('flex md:hover:!-ml-2 gap-2')).toBe('md:hover:!-ml-2');
    expect(physicalClass('text-right')).toBe('text-right');
    expect(physicalClass('absolute left-1/2 -translate-x-1/2')).toBeUndefined();
    expect(physicalClass('ms-2 pe-4 start-0 text-end rounded-s-md border-e')).toBeUndefined();
    // Words in a sentence are not classes.
    expect(physicalClass('Turn right at the end')).toBeUndefined();
    expect(physicalClass('in a left-to-right browser')).toBeUndefined();
  });

  new RuleTester({ languageOptions: { parserOptions: { ecmaFeatures: { jsx: true } } } }).run(
    'logical-direction',
    rule,
    {
      valid: [
        '<div className="ms-2 ps-3 text-start" />',
        'const style = { marginInlineStart: 4 }',
        'cn(`end-0 ${x}`)',
        // Geometry, not layout: a point's left and right outside a style attribute.
        'const box = { left: 0, right: 10 }',
        '<div style={{ insetInlineStart: 0, textAlign: "start" }} />',
      ],
      invalid: [
        { code: '<div className="ml-2" />', errors: [{ messageId: 'physicalClass' }] },
        { code: 'cn(`pr-4 ${x}`)', errors: [{ messageId: 'physicalClass' }] },
        { code: '<div style={{ paddingLeft: 8 }} />', errors: [{ messageId: 'physicalStyle' }] },
        { code: '<div style={{ left: 8 }} />', errors: [{ messageId: 'physicalStyle' }] },
        { code: '<div style={{ right: `${x}px` }} />', errors: [{ messageId: 'physicalStyle' }] },
        { code: '<div style={{ textAlign: "right" }} />', errors: [{ messageId: 'physicalStyle' }] },
        { code: '<div style={{ borderTopLeftRadius: 4 }} />', errors: [{ messageId: 'physicalStyle' }] },
      ],
    },
  );
});
