import { describe, expect, it } from 'vitest';
import { localizeShell } from './vite-localized-shells.ts';

describe("the app's shell per language (issue 32)", () => {
  // index.html as Vite writes it.
  const built = [
    '<!doctype html>',
    '<html lang="en" dir="ltr">',
    '  <head>',
    '    <meta',
    '      name="description"',
    '      content="StudyHall: quizzes for teachers."',
    '    />',
    '    <script type="module" crossorigin src="/assets/index-abc123.js"></script>',
    '  </head>',
    '  <body><div id="root"></div></body>',
    '</html>',
  ].join('\n');

  it('writes its <html lang dir> and its description in that language, its script untouched', () => {
    const arabic = localizeShell(built, 'ar', 'StudyHall: اختبارات "وموارد"');
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(arabic).toContain('content="StudyHall: اختبارات &quot;وموارد&quot;"');
    expect(arabic).not.toContain('quizzes for teachers');
    expect(arabic).toContain('<script type="module" crossorigin src="/assets/index-abc123.js"></script>');
    expect(localizeShell(built, 'es', 'StudyHall: cuestionarios')).toContain('<html lang="es" dir="ltr">');
  });

  it('refuses a shell without its source <html> tag or its description: it must not ship in English', () => {
    expect(() => localizeShell(built.replace('lang="en"', 'lang="fr"'), 'es', 'd')).toThrow(/must open with/);
    expect(() => localizeShell(built.replace('name="description"', 'name="x"'), 'es', 'd')).toThrow(/description/);
  });
});
