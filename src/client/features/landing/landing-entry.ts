/**
 * The only script of the prerendered landing page (landing.html, served at /, and its copy per
 * language, landing.es.html…): it gives the static markup of landing-page.tsx the behaviour React
 * gives it in the app, without React, so a first visit downloads a few kB instead of the app
 * (decision 014). Everything else on the page is plain HTML: its links load the app with an
 * ordinary navigation. It shows no text of its own: every text is prerendered in the page's
 * language, so it needs no catalog and no Lingui.
 */
import '../../styles.css';
import { directionAt, tabClassName, tabIndexAfterKey } from './feature-tabs.ts';
import { DEMO_CREDENTIALS } from './demo-credentials.ts';
import { SCHOOL_SETUP_MARKER } from '../school/school-setup-status.ts';
import { DEMO_CREDENTIAL_MARKER, DEMO_SCHOOL_MARKER, readLandingSchoolStatus } from './landing-school-status.ts';
import { LOCALE_CHOICE_MARKER, rememberLocaleOf } from './landing-language.ts';

/** WAI-ARIA tabs on prerendered markup: click or Left/Right/Home/End selects (Left is next right to left); roving tabindex. */
export function enhanceTabs(tablist: Element) {
  const tabs = [...tablist.querySelectorAll<HTMLElement>('[role="tab"]')];

  const select = (index: number) => {
    tabs.forEach((tab, position) => {
      const isSelected = position === index;
      tab.setAttribute('aria-selected', String(isSelected));
      tab.tabIndex = isSelected ? 0 : -1;
      tab.className = tabClassName(isSelected);
      const panel = document.getElementById(tab.getAttribute('aria-controls') ?? '');
      if (panel) panel.hidden = !isSelected;
    });
  };

  tabs.forEach((tab, index) => {
    tab.addEventListener('click', () => select(index));
    tab.addEventListener('keydown', (event) => {
      const current = tabs.findIndex((candidate) => candidate.getAttribute('aria-selected') === 'true');
      const target = tabIndexAfterKey(event.key, current, tabs.length, directionAt(tab));
      if (target === undefined) return;
      event.preventDefault();
      select(target);
      tabs[target]?.focus();
    });
  });
}

document.querySelectorAll('[role="tablist"]').forEach(enhanceTabs);

// The language links go to that language's page; the click also keeps the choice for the app.
document.querySelectorAll(`[${LOCALE_CHOICE_MARKER}]`).forEach((link) => {
  link.addEventListener('click', () => rememberLocaleOf(link));
});

const show = (marker: string) =>
  document.querySelectorAll<HTMLElement>(`[${marker}]`).forEach((block) => (block.hidden = false));

// A server with no school yet leads the visitor to /setup (issue 19); one with the demo school
// names its sign-ins (decision 050). Both blocks are in the markup, hidden, the credentials empty.
void readLandingSchoolStatus().then(({ isSetUpNeeded, hasDemo }) => {
  if (isSetUpNeeded) show(SCHOOL_SETUP_MARKER);
  if (!hasDemo) return;
  document.querySelectorAll<HTMLElement>(`[${DEMO_CREDENTIAL_MARKER}]`).forEach((code) => {
    const name = code.getAttribute(DEMO_CREDENTIAL_MARKER);
    if (name && Object.hasOwn(DEMO_CREDENTIALS, name))
      code.textContent = DEMO_CREDENTIALS[name as keyof typeof DEMO_CREDENTIALS];
  });
  show(DEMO_SCHOOL_MARKER);
});
