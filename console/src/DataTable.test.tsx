import { render, screen, within } from '@testing-library/react';
import { DataTable, type Column } from './DataTable';

// What a screen reader meets in every console table: its caption, column headers, and either the rows or why there are none.

type Release = { version: string; verified: boolean };
const columns: Column<Release>[] = [
  { header: 'Version', cell: (release) => release.version },
  { header: 'Integrity', cell: (release) => (release.verified ? 'verified' : 'hash differs'), className: (release) => (release.verified ? 'ok' : 'refused') },
];

it('names its columns and shows a row per item, each cell under its header', () => {
  const releases = [
    { version: '1.5.0', verified: false },
    { version: '1.4.0', verified: true },
  ];
  render(<DataTable caption="Releases of remote-title" columns={columns} rows={releases} rowKey={(release) => release.version} empty="Nothing published yet." />);
  const table = screen.getByRole('table', { name: 'Releases of remote-title' });
  expect(within(table).getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Version', 'Integrity']);
  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
    ['1.5.0', 'hash differs'],
    ['1.4.0', 'verified'],
  ]);
  expect(within(rows[0]!).getByRole('cell', { name: 'hash differs' })).toHaveClass('refused');
  expect(screen.queryByText('Nothing published yet.')).toBeNull();
});

it('says why it is empty, across every column', () => {
  render(<DataTable caption="Releases of remote-title" columns={columns} rows={[]} rowKey={(release) => release.version} empty="Nothing published yet." />);
  expect(screen.getByRole('cell', { name: 'Nothing published yet.' })).toHaveAttribute('colspan', '2');
});
