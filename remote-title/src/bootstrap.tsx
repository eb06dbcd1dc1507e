import { renderStandalone } from '@netnet/shared/standalone';
import { pageModules } from './pages';

// Runs this remote on its own page, without the shell (npm run dev -w remote-title).
void renderStandalone('remote-title', pageModules);
