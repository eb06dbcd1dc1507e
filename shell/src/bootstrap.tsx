import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { boot } from './boot/boot';
import { BootError } from './boot/BootError';
import { App } from './App';

const root = createRoot(document.getElementById('root')!);

boot().then(
  () => root.render(<StrictMode><App /></StrictMode>),
  (error: unknown) => {
    console.error('Netnet could not start:', error);
    root.render(<BootError error={error} />);
  },
);
