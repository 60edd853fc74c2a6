import { describe, expect, it } from 'vitest';
import { fileNameOf } from './download-endpoint-file.ts';

describe('fileNameOf', () => {
  it('prefers the UTF-8 name, then the plain one, then the fallback', () => {
    expect(fileNameOf(`attachment; filename="Fran_ais.gift.txt"; filename*=UTF-8''Fran%C3%A7ais.gift.txt`, 'x')).toBe(
      'Français.gift.txt',
    );
    expect(fileNameOf('attachment; filename="quiz.gift.txt"', 'x')).toBe('quiz.gift.txt');
    expect(fileNameOf(`attachment; filename="a.txt"; filename*=UTF-8''%E0%A4%A`, 'x')).toBe('a.txt');
    expect(fileNameOf(null, 'fallback.txt')).toBe('fallback.txt');
  });
});
