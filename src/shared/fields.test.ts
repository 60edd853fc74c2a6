import { describe, expect, it } from 'vitest';
import { teacherAccountFields, studentDetailFields } from './accounts.ts';
import { fieldErrorsOf } from './api.ts';
import { createClassSchema } from './classes.ts';
import { blankableText, classNameText, isBlankText, requiredText } from './fields.ts';
import { duplicateQuizSchema } from './quiz-lifecycle.ts';
import { descriptionField, tagsField, videoLinkSchema } from './resources.ts';
import { schoolNameSchema } from './school-setup.ts';

// Texts that show nothing on a screen (issue 30 point 5).
const INVISIBLE = {
  'zero-width space': '\u200b',
  'zero-width non-joiner': '\u200c',
  'zero-width joiner': '\u200d',
  'word joiner': '\u2060',
  'byte order mark': '\ufeff',
  'soft hyphen': '\u00ad',
  'left-to-right and right-to-left marks': '\u200e\u200f',
  'bidi isolates': '\u2066\u2069',
  'variation selector': '\ufe0f',
  'Hangul filler': '\u3164',
  'Mongolian vowel separator': '\u180e',
  'interlinear annotation (a format character)': '\ufff9\ufffb',
  'tag characters': '\u{e0041}\u{e007f}',
  'blank braille cell': '\u2800',
  'a mix with spaces': ' \u200b \u00a0\u2060\ufeff\u3000 ',
};

// Real names, several with a joiner or a non-joiner between real letters, as they are written.
const VISIBLE = {
  Latin: 'Ana María',
  Arabic: 'محمد',
  Persian: 'می‌خواهم', // ZWNJ inside
  Devanagari: 'क्‍ष', // ZWJ inside a conjunct
  Hindi: 'प्रिया',
  CJK: '李小龙',
  Japanese: 'さくら',
  Korean: '김민준',
  Thai: 'สมชาย',
  'a name with a zero-width space inside': 'Ana\u200bMaría',
  'an Arabic number sign (a format character drawn as a sign)': '\u0600',
  emoji: '👩🏽‍🏫',
};

describe('isBlankText: the one rule for what shows as blank', () => {
  it.each(Object.entries(INVISIBLE))('is blank for %s', (_kind, text) => {
    expect(isBlankText(text)).toBe(true);
  });

  it.each(Object.entries(VISIBLE))('shows %s', (_kind, text) => {
    expect(isBlankText(text)).toBe(false);
  });

  it('is blank for the empty text and spaces', () => {
    expect(isBlankText('')).toBe(true);
    expect(isBlankText(' \t\n')).toBe(true);
  });
});

describe('every human-readable name follows it', () => {
  const required = {
    "a teacher's name": teacherAccountFields.name,
    "a teacher's subject": teacherAccountFields.subject,
    "a student's name": studentDetailFields.name,
    "a parent's name": studentDetailFields.parentName,
    'a class name': classNameText(),
    "the school's name": schoolNameSchema,
    'any required text': requiredText(50),
  };

  it.each(Object.entries(required))('refuses %s made only of invisible characters, as missing', (_field, schema) => {
    for (const text of Object.values(INVISIBLE)) {
      const result = schema.safeParse(text);
      expect(result.success).toBe(false);
      // One problem, the one an empty field gets.
      expect(fieldErrorsOf(result.error?.issues ?? [])).toEqual([{ field: '', code: 'REQUIRED' }]);
      expect(fieldErrorsOf(schema.safeParse('').error?.issues ?? [])).toEqual([{ field: '', code: 'REQUIRED' }]);
    }
  });

  it.each(Object.entries(required))('accepts %s in any script', (_field, schema) => {
    for (const text of Object.values(VISIBLE)) expect(schema.safeParse(text).success).toBe(true);
  });

  it('reads an optional text of only invisible characters as left blank', () => {
    expect(blankableText(50).parse('\u200b\ufeff')).toBe('');
    expect(blankableText(50).parse('می‌خواهم')).toBe('می‌خواهم');
    expect(createClassSchema.parse({ name: '10-A', subject: '\u200b' }).subject).toBe('');
    expect(descriptionField.parse('\u2060')).toBeNull();
    expect(tagsField.parse('algebra, \u200b, \ufeff')).toEqual(['algebra']);
  });

  it('refuses a quiz title or a resource title of only invisible characters', () => {
    const title = duplicateQuizSchema.shape.title.safeParse('\u200b');
    expect(fieldErrorsOf(title.error?.issues ?? [])).toEqual([{ field: '', code: 'REQUIRED' }]);
    const link = videoLinkSchema.safeParse({ url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', fileName: '\u200d' });
    expect(fieldErrorsOf(link.error?.issues ?? [])).toContainEqual({ field: 'fileName', code: 'REQUIRED' });
  });
});
