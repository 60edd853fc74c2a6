import { describe, expect, it } from 'vitest';
import packageJson from '../../../../package.json' with { type: 'json' };
import { DEMO_PASSWORD, DEMO_STUDENT_ROLL_NUMBER, DEMO_TEACHER_EMAIL } from '#shared/demo';
import { tabClassName } from './feature-tabs.ts';
import { renderLandingMarkup } from './render-landing.tsx';

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
});
