// Before any zod schema is built, as in main.tsx.
import '../lib/zod-setup.ts';
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { setClassCheck } from '../lib/cn.ts';
import { patience } from '../../server/testing/patience.ts';
import { throwOnClassConflicts } from './class-conflicts.ts';

// A screen's first appearance loads its lazy route and asks the real server; on a loaded CI
// machine that can take more than Testing Library's default second (decision 042).
configure({ asyncUtilTimeout: patience(10_000) });

/**
 * Every component test file. The document lives at the test server's address (vitest.config.ts),
 * so the upload's XMLHttpRequest is same-origin as in production; fetch resolves a path against
 * the document as a browser's does (jsdom has no fetch, and Node's refuses a relative address).
 */

// Every class list a screen joins is checked: two utilities of one property fail the test, also
// when a route's error screen caught the throw (afterEach below).
let classConflict: Error | null = null;
setClassCheck((classes) => {
  try {
    throwOnClassConflicts(classes);
  } catch (error) {
    classConflict ??= error as Error;
    throw error;
  }
});

const nodeFetch = globalThis.fetch;
globalThis.fetch = (input, init) => nodeFetch(typeof input === 'string' ? new URL(input, location.href) : input, init);

// What jsdom leaves out of the browser: media queries (answered for a desktop window of jsdom's
// 1024 px: only min-width and max-width are understood) and layout observers (jsdom lays nothing out).
window.matchMedia = (query: string) => {
  const width = /\((min|max)-width:\s*(\d+)px\)/.exec(query);
  const matches = width
    ? width[1] === 'min'
      ? innerWidth >= Number(width[2])
      : innerWidth <= Number(width[2])
    : false;
  return {
    matches,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  };
};
globalThis.ResizeObserver = class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// jsdom has <dialog> without its methods: a modal is open or closed, its close event fires.
// No top layer and no focus trap; the e2e scenarios cover those in a browser.
HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
  this.open = true;
};
HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
  if (!this.open) return;
  this.open = false;
  this.dispatchEvent(new Event('close'));
};

afterEach(() => {
  cleanup();
  localStorage.clear();
  // A signed-in screen writes the account's language in the cookie (decision 055 addendum): the
  // next test starts as a new visitor, who chose none.
  document.cookie = 'studyhall_locale=; Max-Age=0; Path=/';
  if (classConflict) {
    const conflict = classConflict;
    classConflict = null;
    throw conflict;
  }
});
