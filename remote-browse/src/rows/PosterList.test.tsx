import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, type TitleSummary } from '@netnet/shared';
import { loadTestRuntimeConfig } from '@netnet/shared/testing';
import { PosterList } from './PosterList';

const titles = Array.from({ length: 7 }, (_, i) => ({ id: 300 + i, title: `Title ${i}`, poster_path: `/p${i}.jpg` }) as TitleSummary);

beforeEach(loadTestRuntimeConfig);

describe('PosterList', () => {
  it('holds the posters a phone shows in the server’s page, and the whole row once the browser has taken it over', async () => {
    const row = (
      <MemoryRouter>
        <PosterList titles={titles} type="movie" onScreen />
      </MemoryRouter>
    );
    // The server's markup, parsed as the browser parses a page.
    const page = new DOMParser().parseFromString(`<div>${renderToString(row)}</div>`, 'text/html');
    const container = document.importNode(page.body.firstElementChild!, true) as HTMLElement;
    document.body.append(container);
    expect(within(container).getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      '/title/300',
      '/title/301',
      '/title/302',
      '/title/303',
    ]);
    expect(within(container).getAllByRole('img').map((image) => image.getAttribute('loading'))).toEqual(['eager', 'eager', 'eager', 'eager']);

    await act(async () => void hydrateRoot(container, row));

    expect(screen.getAllByRole('link')).toHaveLength(7);
    expect(screen.getByRole('img', { name: 'Title 6' })).toHaveAttribute('loading', 'lazy');
    container.remove();
  });
});

describe('PosterList keyboard', () => {
  it('is one Tab stop that follows the arrow keys', async () => {
    const user = userEvent.setup();
    render(
      <MemoryRouter>
        <button type="button">Before</button>
        <PosterList titles={titles} type="movie" label="Comedy movies" />
        <button type="button">After</button>
      </MemoryRouter>,
    );
    const links = screen.getAllByRole('link');
    expect(links.map((link) => link.tabIndex)).toEqual([0, -1, -1, -1, -1, -1, -1]);

    screen.getByRole('button', { name: 'Before' }).focus();
    await user.tab();
    expect(links[0]).toHaveFocus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(links[2]).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'After' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(links[2]).toHaveFocus();
    await user.keyboard('{End}');
    expect(links[6]).toHaveFocus();
    expect(links.filter((link) => link.tabIndex === 0)).toEqual([links[6]]);
  });
});
