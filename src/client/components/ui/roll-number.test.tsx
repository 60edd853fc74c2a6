import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RollNumber } from './roll-number.tsx';

describe('a roll number', () => {
  it('is isolated from the text around it and kept on one line, never broken at its hyphen', () => {
    render(<RollNumber value="2024-017" className="text-muted" />);
    const rollNumber = screen.getByText('2024-017');
    expect(rollNumber.tagName).toBe('BDI');
    expect(rollNumber).toHaveClass('whitespace-nowrap', 'text-muted');
  });

  it('may break anywhere only when too long for any line', () => {
    const long = 'x'.repeat(40);
    render(<RollNumber value={long} />);
    expect(screen.getByText(long)).toHaveClass('wrap-anywhere');
    expect(screen.getByText(long)).not.toHaveClass('whitespace-nowrap');
  });
});
