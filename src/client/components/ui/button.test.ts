import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Button } from './button.tsx';

const classesOf = (markup: string) => (/class="([^"]*)"/.exec(markup)?.[1] ?? '').split(' ');

describe('Button', () => {
  it("lets the caller's padding win over its own (the overrides were lost in the CSS order)", () => {
    const classes = classesOf(renderToStaticMarkup(createElement(Button, { className: 'px-3 py-2' }, 'Send')));
    expect(classes).toContain('px-3');
    expect(classes).toContain('py-2');
    expect(classes).not.toContain('px-4');
    expect(classes).not.toContain('py-2.5');
  });

  it('keeps one background per variant when the caller adds another', () => {
    const classes = classesOf(
      renderToStaticMarkup(createElement(Button, { variant: 'danger', className: 'bg-red-900' }, 'Leave')),
    );
    expect(classes.filter((name) => /^bg-/.test(name))).toEqual(['bg-red-900']);
    expect(classes).toContain('text-white');
  });
});
