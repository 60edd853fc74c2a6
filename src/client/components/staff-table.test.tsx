import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderTranslated } from '../testing/render-translated.tsx';
import { StaffTable } from './staff-table.tsx';

describe('StaffTable', () => {
  const table = (
    <StaffTable
      caption="Staff"
      headers={['Name', 'Email', 'Role']}
      rows={[{ key: 't1', heading: 'Ada Lovelace', cells: ['ada@school.test', 'Admin'] }]}
    />
  );

  it('is a table with its column headers, reachable by keyboard', () => {
    renderTranslated(table);
    const region = screen.getByRole('region', { name: 'Staff' });
    expect(region).toHaveAttribute('tabindex', '0');
    const grid = within(region).getByRole('table', { name: 'Staff' });
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Email', 'Role']);
    expect(within(grid).getByRole('rowheader', { name: 'Ada Lovelace' })).toBeInTheDocument();
  });

  it('reads as a card per row on a phone: each value after its column’s name, nothing kept sideways (issue 32)', () => {
    renderTranslated(table);
    const grid = screen.getByRole('table', { name: 'Staff' });
    // Blocks below sm (no sideways scrolling), the header row only for screen readers.
    expect(grid).toHaveClass('max-sm:block');
    expect(grid.querySelector('thead')).toHaveClass('max-sm:sr-only');
    const cells = within(grid).getAllByRole('cell');
    expect(cells.map((cell) => cell.dataset.label)).toEqual(['Email', 'Role']);
    for (const cell of cells)
      expect(cell).toHaveClass('max-sm:before:content-[attr(data-label)]', 'max-sm:whitespace-normal');
    // The kept first column is a desktop thing: on a phone the row heading is the card's first line.
    const heading = within(grid).getByRole('rowheader');
    expect(heading).toHaveClass('sm:sticky', 'max-sm:block');
    expect(heading).not.toHaveClass('sticky');
  });
});
