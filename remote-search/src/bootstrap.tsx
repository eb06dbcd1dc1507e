import { renderStandalone } from '@netnet/shared';
import Search from './pages/Search';

// Runs this remote on its own page, without the shell (npm run dev -w remote-search).
void renderStandalone({
  name: 'remote-search',
  asMember: true,
  pages: {
    '/search': Search,
  },
});
