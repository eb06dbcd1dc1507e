// The console's first view as HTML, for the control-plane API to put into the page it serves
// (control-plane/src/api/console/firstView.ts): the frame and every remote of the signed-in
// person's first environment, exactly as the browser would draw them from the same boot block, so
// React takes them over as they are (./main.tsx). Built for Node by console/webpack.config.js.
import { renderToString } from 'react-dom/server';
import { App } from './App';
import type { Boot } from './boot';

export function renderFirstView(boot: Boot): string {
  return renderToString(<App boot={boot} hash="" />);
}
