// The console page as the API serves it (./routes.ts): the console's build (console/dist/) and,
// for a signed-in person, what their first view needs written into it, so the browser draws it
// without a round trip after the script: the session and every remote of their first environment
// as a JSON data block (not a script: the page's policy runs none inline), and that view's HTML,
// rendered by the console's own server build (console/dist/server/firstView.cjs, made by
// console/webpack.config.js), which the browser's React then takes over (hydrates).
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';

export const CONSOLE_DIST = fileURLToPath(new URL('../../../../console/dist/', import.meta.url));

const RENDERER = `${CONSOLE_DIST}server/firstView.cjs`;
const require = createRequire(import.meta.url);

/** What the console's src/boot.ts reads: the session (null: none) and the first view's figures. */
export interface Boot {
  session: unknown;
  first: { environment: string; overview: unknown } | null;
}

let renderer: { builtAt: number; render: (boot: Boot) => string } | null = null;

/** The renderer of the console's current build (a rebuild while the API runs is picked up); null when none is built. */
function currentRenderer() {
  let builtAt: number;
  try {
    builtAt = statSync(RENDERER).mtimeMs;
  } catch {
    return null;
  }
  if (renderer?.builtAt !== builtAt) {
    delete require.cache[RENDERER];
    const { renderFirstView } = require(RENDERER) as { renderFirstView: (boot: Boot) => string };
    renderer = { builtAt, render: renderFirstView };
  }
  return renderer.render;
}

/** `<` escaped: the block's text can never close its element. */
const jsonBlock = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * index.html with the boot block and, when it can be rendered, the first view's HTML and title.
 * Without a renderer, or when rendering fails, the page goes with the boot block alone (the
 * browser draws the view from it), and the failure is logged.
 */
export function pageWith(html: string, boot: Boot, log: Pick<FastifyBaseLogger, 'warn'>): string {
  let page = html.replace('</body>', () => `<script type="application/json" id="console-boot">${jsonBlock(boot)}</script></body>`);
  if (!boot.first) return page;
  try {
    const render = currentRenderer();
    if (!render) return page;
    page = page.replace(/<div id="?root"?><\/div>/, () => `<div id="root">${render(boot)}</div>`);
    page = page.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeText(`Remotes · ${boot.first!.environment} · Netnet release console`)}</title>`);
  } catch (error) {
    log.warn({ err: error }, 'the console\'s first view could not be rendered on the server: the page goes without it');
  }
  return page;
}
