import { renderStandalone } from '@netnet/shared';
import Browse from './pages/Browse';
import Movies from './pages/Movies';
import Series from './pages/Series';
import MyList from './pages/MyList';
import ComingSoon from './pages/ComingSoon';
import Downloads from './pages/Downloads';

// Runs this remote on its own page, without the shell (npm run dev -w remote-browse).
void renderStandalone({
  name: 'remote-browse',
  asMember: true,
  pages: {
    '/browse': Browse,
    '/movies': Movies,
    '/series': Series,
    '/my-list': MyList,
    '/coming-soon': ComingSoon,
    '/downloads': Downloads,
  },
});
