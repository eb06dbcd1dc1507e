// The release console (docs/releases.md, "A release owner's day in the console"): the product's
// design tokens and base styles from shared, the console's own rules, one React root. The server
// renders the first view into the page when it knows it (./boot.ts): React then takes that HTML
// over (hydrates) rather than drawing it again.
import '@netnet/shared/styles';
import './console.scss';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './App';
import { firstViewFits, readBoot } from './boot';

const root = document.getElementById('root');
if (root) {
  const boot = readBoot();
  const hash = window.location.hash;
  const app = <App boot={boot} hash={hash} />;
  if (root.firstChild && firstViewFits(boot, hash)) hydrateRoot(root, app);
  else {
    // The address asks for another view than the one the server drew (its fragment never reaches the server).
    root.replaceChildren();
    createRoot(root).render(app);
  }
}
