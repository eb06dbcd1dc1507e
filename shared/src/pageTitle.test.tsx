import { render, screen } from '@testing-library/react';
import { documentTitle, usePageTitle } from './pageTitle';

function Page({ name, heading }: { name: string | null; heading: string }) {
  usePageTitle(name);
  return (
    <main>
      <h1>{heading}</h1>
      <button type="button">Elsewhere</button>
    </main>
  );
}

const go = (path: string) => window.history.pushState(null, '', path);

it('names the document "{page} — Netnet", or Netnet alone', () => {
  expect(documentTitle('Home')).toBe('Home — Netnet');
  expect(documentTitle(null)).toBe('Netnet');
});

it('titles the page, leaves the first page’s focus alone, and focuses the next page’s heading once it knows its name', () => {
  go('/browse');
  const { rerender } = render(<Page name="Home" heading="Home" />);
  expect(document.title).toBe('Home — Netnet');
  expect(document.body).toHaveFocus();

  // Another path, still loading: neither the title nor focus move yet.
  go('/title/604');
  screen.getByRole('button', { name: 'Elsewhere' }).focus();
  rerender(<Page name={null} heading="Loading title" />);
  expect(document.title).toBe('Home — Netnet');
  expect(screen.getByRole('button', { name: 'Elsewhere' })).toHaveFocus();

  rerender(<Page name="Into the Paper Witness" heading="Into the Paper Witness" />);
  expect(document.title).toBe('Into the Paper Witness — Netnet');
  expect(screen.getByRole('heading', { level: 1, name: 'Into the Paper Witness' })).toHaveFocus();

  // A new query on the same path (a search) keeps focus where the member is.
  screen.getByRole('button', { name: 'Elsewhere' }).focus();
  go('/title/604?play=1');
  rerender(<Page name="Into the Paper Witness again" heading="Into the Paper Witness" />);
  expect(screen.getByRole('button', { name: 'Elsewhere' })).toHaveFocus();
});
