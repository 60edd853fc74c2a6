import { describe, expect, it } from 'vitest';
import { FIELD_ERROR_CODES } from '#shared/field-error-codes';
import { fieldErrorMessage, UNKNOWN_FIELD_MESSAGE } from './field-error-messages.ts';

describe('the server words a field error’s English from its code (issue 32 point 3)', () => {
  it('says every code in words, not as the code', () => {
    for (const code of FIELD_ERROR_CODES) {
      const message = fieldErrorMessage({ code });
      expect(message, code).toMatch(/^[A-Z][a-z ]/);
      expect(message, code).not.toContain(code);
    }
  });

  it('fills in the bounds of the generic codes', () => {
    expect(fieldErrorMessage({ code: 'REQUIRED' })).toBe('Required');
    expect(fieldErrorMessage({ code: 'TOO_LONG', params: { maximum: 200 } })).toBe('Must be at most 200 characters');
    expect(fieldErrorMessage({ code: 'TOO_SMALL', params: { minimum: 0, inclusive: false } })).toBe(
      'Must be more than 0',
    );
    expect(fieldErrorMessage({ code: 'INVALID_CHOICE', params: { values: ['asc', 'desc'] } })).toBe(
      'Must be one of: asc, desc',
    );
    expect(fieldErrorMessage({ code: 'UNKNOWN_FIELD' })).toBe(UNKNOWN_FIELD_MESSAGE);
  });

  it('says a rule’s code by its meaning, with its parameters', () => {
    expect(fieldErrorMessage({ code: 'PASSWORDS_DIFFER' })).toBe('The repeated new password is not the new password');
    expect(fieldErrorMessage({ code: 'DUPLICATE_IN_FILE', params: { firstRow: 4 } })).toBe(
      'The same value is on an earlier row (4) of the file',
    );
  });
});
