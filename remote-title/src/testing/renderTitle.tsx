// The title routes rendered as the shell mounts them, for a signed-in member.
import type { ReactNode } from 'react';
import { Route, Routes } from '@netnet/shared';
import { renderPage } from '@netnet/shared/testing';
import MovieDetail from '../pages/MovieDetail';
import SeriesDetail from '../pages/SeriesDetail';

export function renderTitleRoute(path: string, uid = 'member-1', beside: ReactNode = null) {
  return renderPage(
    <>
      {beside}
      <Routes>
      <Route path="/title/:id" element={<MovieDetail />} />
      <Route path="/tv/:id" element={<SeriesDetail />} />
      <Route path="/" element={<p>Landing page</p>} />
      <Route path="/browse" element={<p>Home page</p>} />
      </Routes>
    </>,
    { path, auth: uid },
  );
}
