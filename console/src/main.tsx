// The release console (docs/releases.md, "A release owner's day in the console"): the product's
// design tokens and base styles from shared, the console's own rules, one React root.
import '@netnet/shared/styles';
import './console.scss';
import { createRoot } from 'react-dom/client';
import { App } from './App';

const root = document.getElementById('root');
if (root) createRoot(root).render(<App />);
