import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderTranslated } from '../../../testing/render-translated.tsx';
import { QuestionHeader } from './question-header.tsx';

function header() {
  renderTranslated(<QuestionHeader number={1} text="What is the capital of France?" />);
  return {
    button: screen.getByRole('button', { name: 'Q1' }),
    isOpen: () => screen.getByRole('tooltip', { hidden: true }).getAttribute('data-open') === 'true',
  };
}

describe('the analytics question header’s tooltip (issue 30, point 13)', () => {
  it('stays open while its button has focus, whatever the pointer does', async () => {
    const user = userEvent.setup();
    const { button, isOpen } = header();
    // A tap after the mouse was used: the pointer enters, the tap focuses the button, the
    // pointer leaves (the mouse's last place is elsewhere). The question must stay readable.
    await user.hover(button);
    await user.click(button);
    expect(button).toHaveFocus();
    await user.unhover(button);
    expect(isOpen()).toBe(true);
    // Focus leaving closes it, the pointer being elsewhere.
    await user.tab();
    expect(button).not.toHaveFocus();
    expect(isOpen()).toBe(false);
  });

  it('opens on hover and on focus, closes on leave when not focused, and on Escape even when focused', async () => {
    const user = userEvent.setup();
    const { button, isOpen } = header();
    await user.hover(button);
    expect(isOpen()).toBe(true);
    await user.unhover(button);
    expect(isOpen()).toBe(false);

    await user.tab();
    expect(button).toHaveFocus();
    expect(isOpen()).toBe(true);
    await user.keyboard('{Escape}');
    expect(isOpen()).toBe(false);
    // Escape dismisses it (WCAG 1.4.13); a click on the still-focused button shows it again.
    await user.click(button);
    expect(isOpen()).toBe(true);
    // Blurred while the pointer is still over it: it stays until the pointer leaves.
    act(() => button.blur());
    expect(isOpen()).toBe(true);
    await user.unhover(button);
    expect(isOpen()).toBe(false);
  });
});
