import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MathText } from './math-text.tsx';

describe('MathText', () => {
  it('renders a fraction with KaTeX, HTML for the eye and MathML for screen readers', async () => {
    const { container } = render(<MathText text="Half is \(\frac{1}{2}\), isn't it?" />);
    // Until KaTeX has loaded, the TeX shows as typed.
    expect(container.textContent).toContain('\\(\\frac{1}{2}\\)');
    await waitFor(() => expect(container.querySelector('.katex .mfrac')).not.toBeNull());
    expect(container.querySelector('.katex-mathml math mfrac')).not.toBeNull();
    expect(container.querySelector('[data-math]')).toHaveAttribute('data-math', 'rendered');
    expect(container.textContent).not.toContain('\\(');
    expect(container.textContent).toMatch(/^Half is .*, isn't it\?$/);
  });

  it('renders display math as a block', async () => {
    const { container } = render(<MathText text="$$x^2$$" />);
    await waitFor(() => expect(container.querySelector('.katex-display')).not.toBeNull());
  });

  it('shows invalid TeX as typed, without failing the page', async () => {
    const { container } = render(<MathText text="Broken: \(\frac{1}{\)" />);
    await waitFor(() => expect(container.querySelector('.katex-error')).not.toBeNull());
    expect(container.querySelector('.katex-error')).toHaveTextContent('\\frac{1}{');
    expect(container.querySelector('.mfrac')).toBeNull();
  });

  it('keeps text outside the math as text, never HTML', async () => {
    const { container } = render(<MathText text="<b>bold</b> and \(y\) <img src=x onerror=alert(1)>" />);
    await waitFor(() => expect(container.querySelector('.katex')).not.toBeNull());
    expect(container.querySelector('b')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toContain('<b>bold</b> and ');
  });

  it('renders plain text without loading anything', () => {
    render(<MathText text="It costs \$5, not $$" />);
    expect(screen.getByText('It costs $5, not $$')).toBeInTheDocument();
  });

  it('keeps a text’s own direction in a page of the other (an English question on an Arabic screen)', () => {
    render(
      <div dir="rtl">
        <MathText text="What is 2 + 2?" />
      </div>,
    );
    expect(screen.getByText('What is 2 + 2?')).toHaveAttribute('dir', 'auto');
  });
});
