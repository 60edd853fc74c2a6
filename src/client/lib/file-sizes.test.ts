import { i18n } from '@lingui/core';
import { afterAll, describe, expect, it } from 'vitest';
import { messages as arabic } from '../locales/ar/messages.po';
import { messages as spanish } from '../locales/es/messages.po';
import { formatSizeInKilobytes, formatStorageAmount } from './file-sizes.ts';

describe('file sizes', () => {
  afterAll(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

  it('counts in 1024s as the spec and the server do, in English', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    expect(
      [0, 1, 1000, 1024, 12.5 * 1024, 100 * 1024 ** 2, 4.84 * 1024 ** 3, 5 * 1024 ** 3].map(formatStorageAmount),
    ).toEqual(['0 bytes', '1 byte', '1,000 bytes', '1 KB', '12.5 KB', '100 MB', '4.8 GB', '5 GB']);
    expect(formatSizeInKilobytes(3588)).toBe('3.5 KB');
    expect(formatSizeInKilobytes(2048)).toBe('2.0 KB');
  });

  it("writes the locale's digits and words", () => {
    i18n.loadAndActivate({ locale: 'es', messages: spanish });
    expect(formatStorageAmount(1.25 * 1024 ** 3)).toBe('1,3 GB');
    expect(formatSizeInKilobytes(3588)).toBe('3,5 KB');
    i18n.loadAndActivate({ locale: 'ar', messages: arabic });
    const digits = (n: number) => new Intl.NumberFormat('ar').format(n);
    expect(formatStorageAmount(2)).toBe('بايتان');
    expect(formatStorageAmount(5 * 1024 ** 3)).toBe(`${digits(5)} غيغابايت`);
  });
});
