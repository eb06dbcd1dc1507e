import { renderStandalone } from '@netnet/shared';
import MovieDetail from './pages/MovieDetail';
import SeriesDetail from './pages/SeriesDetail';

// Runs this remote on its own page, without the shell (npm run dev -w remote-title).
void renderStandalone({
  name: 'remote-title',
  asMember: true,
  pages: {
    '/title/:id': MovieDetail,
    '/tv/:id': SeriesDetail,
  },
});
