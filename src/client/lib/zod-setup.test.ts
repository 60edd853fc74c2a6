import { describe, expect, it } from 'vitest';

describe('zod-setup', () => {
  it('makes zod jitless (no new Function probe for the CSP to refuse) without importing it first', async () => {
    await import('./zod-setup.ts');
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
    // And a schema built afterwards parses without compiling: no Function constructor call.
    const original = globalThis.Function;
    let compiled = 0;
    globalThis.Function = new Proxy(original, {
      construct(target, args) {
        compiled += 1;
        return Reflect.construct(target, args);
      },
    });
    try {
      const schema = z.object({ name: z.string(), age: z.number() });
      expect(schema.parse({ name: 'Ada', age: 36 })).toEqual({ name: 'Ada', age: 36 });
      expect(schema.safeParse({ name: 1 }).success).toBe(false);
    } finally {
      globalThis.Function = original;
    }
    expect(compiled).toBe(0);
  });
});
