import { describe, expect, it } from 'vitest';
import packageJson from '../../../../package.json' with { type: 'json' };
import { DEMO_PASSWORD, DEMO_STUDENT_ROLL_NUMBER, DEMO_TEACHER_EMAIL } from '#shared/demo';
import { tabClassName } from './feature-tabs.ts';
import { landingDescription, renderLandingMarkup } from './render-landing.tsx';

describe('renderLandingMarkup (the page / serves, prerendered at build time)', () => {
  const markup = renderLandingMarkup();

  it('renders the whole page outside the data router, with plain links to the app', () => {
    expect(markup).toMatch(/<h1[^>]*>One hall where teachers teach/);
    for (const heading of ['Built for both sides of the classroom', 'How it works', 'Try the demo']) {
      expect(markup).toContain(heading);
    }
    expect(markup).toMatch(/<a [^>]*href="\/auth"[^>]*>Get Started/);
    expect(markup).toMatch(/<a [^>]*href="\/auth"[^>]*>Login<\/a>/);
    expect(markup).toMatch(/<a [^>]*href="\/auth\/student\/login"[^>]*>Student login<\/a>/);
    expect(markup).toContain('href="#demo"');
  });

  it('starts on For Teachers, with both panels present for the tabs script to switch', () => {
    const tabs = [...markup.matchAll(/<button [^>]*role="tab"[^>]*>/g)].map(([tag]) => tag);
    expect(tabs).toHaveLength(2);
    expect(tabs[0]).toContain('aria-selected="true"');
    expect(tabs[0]).toContain('tabindex="0"');
    expect(tabs[0]).toContain(`class="${tabClassName(true)}"`);
    expect(tabs[1]).toContain('aria-selected="false"');
    expect(tabs[1]).toContain('tabindex="-1"');
    expect(tabs[1]).toContain(`class="${tabClassName(false)}"`);
    const panels = [...markup.matchAll(/<div [^>]*role="tabpanel"[^>]*>/g)].map(([tag]) => tag);
    expect(panels).toHaveLength(2);
    expect(panels[0]).not.toContain('hidden');
    expect(panels[1]).toContain('hidden');
    for (const [index, tab] of tabs.entries()) {
      const controls = /aria-controls="([^"]+)"/.exec(tab)?.[1];
      expect(panels[index]).toContain(`id="${controls}"`);
    }
  });

  it("shows this release's version in the footer (decision 052)", () => {
    expect(markup).toMatch(/<footer[\s\S]*StudyHall <span data-testid="app-version">v([^<]+)<\/span>[\s\S]*<\/footer>/);
    expect(markup).toContain(`<span data-testid="app-version">v${packageJson.version}</span>`);
  });

  it('says how people come in as they do now: a school set up, teachers invited, students with a class code', () => {
    expect(markup).not.toContain('sign up with an email');
    expect(markup).toContain('your administrator sets up the school and invites its teachers');
    expect(markup).toContain('Students join with their class code');
  });

  it('names no demo account: the demo block is hidden and empty until the server says the demo is there (decision 050)', () => {
    for (const credential of [DEMO_PASSWORD, DEMO_TEACHER_EMAIL, DEMO_STUDENT_ROLL_NUMBER]) {
      expect(markup).not.toContain(credential);
    }
    expect(markup).toMatch(/<section id="demo"[^>]* data-demo-school="" hidden=""/);
    expect(markup).toMatch(/<li data-demo-school="" hidden=""><a href="#demo"/);
    expect(
      markup.match(/<code [^>]*data-demo-credential="(teacher-email|student-username|password)"[^>]*><\/code>/g),
    ).toHaveLength(4);
  });

  it('has nothing the Content-Security-Policy would refuse', () => {
    expect(markup).not.toMatch(/<script|<style|\sstyle="|\son[a-z]+="/);
  });

  it('offers every shipped language, each named in itself, linking to its own page (issue 32)', () => {
    const links = [...markup.matchAll(/<a [^>]*data-locale-choice="[^"]*"[^>]*>[^<]*<\/a>/g)].map(([tag]) => tag);
    expect(links).toEqual([
      '<a href="/?lang=en" hrefLang="en" lang="en" data-locale-choice="en" aria-current="true" class="font-semibold text-fg">English</a>',
      expect.stringMatching(
        /^<a href="\/\?lang=es" hrefLang="es" lang="es" data-locale-choice="es" class="[^"]+">Español<\/a>$/,
      ),
      expect.stringMatching(
        /^<a href="\/\?lang=ar" hrefLang="ar" lang="ar" data-locale-choice="ar" class="[^"]+">العربية<\/a>$/,
      ),
    ]);
  });
});

describe('renderLandingMarkup in each shipped language (issue 32)', () => {
  const english = renderLandingMarkup('en');
  const spanish = renderLandingMarkup('es');
  const arabic = renderLandingMarkup('ar');

  it('words the whole page in Spanish, its links and structure unchanged', () => {
    expect(spanish).toMatch(
      /<h1[^>]*>Un espacio donde los docentes enseñan y <span class="text-brand-700">cada estudiante avanza<\/span>\.<\/h1>/,
    );
    for (const text of ['Pensado para ambos lados del aula', 'Cómo funciona', 'Prueba la demo', 'Para docentes']) {
      expect(spanish).toContain(text);
    }
    expect(spanish).toMatch(/<a [^>]*href="\/auth"[^>]*>Comenzar/);
    expect(spanish).toContain('alt="Un docente y sus estudiantes alrededor de un panel de StudyHall');
    expect(spanish).not.toContain('Built for both sides of the classroom');
    // The same page: same links, same markers for the page's script, only the words differ.
    const shape = (markup: string) =>
      [...markup.matchAll(/<(a|button|section|code|li)\b[^>]*?(href|role|data-[a-z-]+)="[^"]*"/g)].map(([tag]) =>
        tag.replace(/ (class|aria-current|hrefLang|lang)="[^"]*"/g, ''),
      );
    expect(shape(spanish)).toEqual(shape(english));
  });

  it('words the page in Arabic, and its version stays whole', () => {
    expect(arabic).toMatch(
      /<h1[^>]*>قاعة واحدة يعلّم فيها المعلّمون و<span class="text-brand-700">يتقدّم فيها كل طالب<\/span>\.<\/h1>/,
    );
    for (const text of ['مصمَّم لطرفَي الصف كليهما', 'كيف يعمل', 'جرّب النسخة التجريبية', 'للطلاب']) {
      expect(arabic).toContain(text);
    }
    expect(arabic).toContain(`<span data-testid="app-version">v${packageJson.version}</span>`);
  });

  it('marks the language the page is in as the current one of its links', () => {
    expect(spanish).toMatch(/<a [^>]*data-locale-choice="es" aria-current="true"/);
    expect(arabic).toMatch(/<a [^>]*data-locale-choice="ar" aria-current="true"/);
    expect(arabic.match(/aria-current="true"/g)).toHaveLength(1);
  });

  it('turns the pointing arrows right to left, and wraps the demo credentials for an Arabic line', () => {
    expect(arabic).toContain('rtl:-scale-x-100');
    expect(arabic.match(/<bdi><code [^>]*data-demo-credential=/g)).toHaveLength(4);
  });

  it('words the description of the page for search results', () => {
    expect(landingDescription('en')).toBe(
      'StudyHall: quizzes, resources, whiteboard and video rooms for teachers and students.',
    );
    expect(landingDescription('es')).toContain('cuestionarios');
    expect(landingDescription('ar')).toContain('اختبارات');
  });
});
