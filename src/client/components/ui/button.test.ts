import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Button } from './button.tsx';

const classesOf = (markup: string) => (/class="([^"]*)"/.exec(markup)?.[1] ?? '').split(' ');

describe('Button', () => {
  // A caller's padding used to be added beside the button's own, and the stylesheet's order, not
  // the attribute's, decided which won (decision 027): a different padding is a size.
  it('takes a different padding as a size, never beside its own', () => {
    const compact = classesOf(renderToStaticMarkup(createElement(Button, { size: 'compact' }, 'Edit')));
    expect(compact).toEqual(expect.arrayContaining(['px-3', 'py-2', 'text-sm']));
    expect(compact).not.toContain('px-4');
    expect(compact).not.toContain('py-2.5');
  });

  it("leaves padding and text size to the caller's classes with size custom", () => {
    const classes = classesOf(
      renderToStaticMarkup(createElement(Button, { size: 'custom', className: 'px-3 py-2.5 text-sm' }, 'Send')),
    );
    expect(classes.filter((name) => /^(px|py|text)-/.test(name))).toEqual(['text-white', 'px-3', 'py-2.5', 'text-sm']);
  });

  it('keeps one background and one text colour per variant', () => {
    const classes = classesOf(renderToStaticMarkup(createElement(Button, { variant: 'danger-ghost' }, 'Delete')));
    expect(classes.filter((name) => /^(bg|text)-(?!sm)/.test(name))).toEqual(['text-danger']);
  });
});
