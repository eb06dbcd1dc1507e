import { createContext, type ComponentType } from 'react';

// On the server, RemotePage renders the page the server loaded for this request instead of
// loading one (docs/architecture.md#server-rendering). `Page: null` means the server could not
// render it: the area is left for the browser to render.

export interface RenderedPage {
  /** The page's key (preload.ts pageKey): 'remote_title/MovieDetail'. */
  key: string;
  Page: ComponentType | null;
}

export const RenderedPageContext = createContext<RenderedPage | null>(null);

/** The digest of an area the server leaves to the browser; hydration expects it, nothing failed. */
export const LEFT_TO_BROWSER = 'netnet:left-to-browser';

/** Thrown inside the area's Suspense boundary: React sends its fallback and the browser renders it. */
export function LeftToBrowser(): never {
  throw Object.assign(new Error('This area is rendered in the browser.'), { digest: LEFT_TO_BROWSER });
}
