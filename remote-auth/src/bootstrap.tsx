import { renderStandalone } from '@netnet/shared';
import Landing from './pages/Landing';
import Login from './pages/Login';

// Runs this remote on its own page, without the shell (npm run dev -w remote-auth).
void renderStandalone({
  name: 'remote-auth',
  asMember: false,
  pages: {
    '/': Landing,
    '/login': Login,
  },
});
