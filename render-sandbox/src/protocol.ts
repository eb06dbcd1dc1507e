import type { RemoteName } from '@netnet/shared/pages';

// What a shell server and a release's render process say to each other, in frames (./frames.ts)
// on two pipes: the server writes to the process's stdin, the process to its descriptor 3
// (docs/sandbox.md). The process is handed only what a render needs: the release's code (checked
// against its recorded hash first), the runtime config its browser code sees too, per render the
// route and the member hint, and the catalogue answers it asks for (it has no network of its own).

/**
 * The site's runtime config (/config.json) as a render process gets it: the sandbox reads only
 * where the catalogue is; the render script gives the whole to the page code, as the browser does.
 */
export interface RenderConfig {
  catalogueUrl: string;
}

/** Who a render is for (shared's AuthState): passed through to the page, never read here. */
export type AreaAuth = { status: 'loading' } | { status: 'anonymous' } | { status: 'authenticated'; member: { uid: string; email: string | null } };

/** Sent once, first: the release to load, and where its browser files live (for the URLs it renders). */
export interface LoadMessage {
  type: 'load';
  remote: RemoteName;
  /** The release's server entry URL: names the container (two releases are two containers). */
  entry: string;
  /** Base URL of the release's browser build. */
  publicPath: string;
  /** server/remoteEntry.js, already checked against the release's record. */
  code: string;
  /** The page modules to load and initialise before the process takes a render. */
  modules: string[];
  config: RenderConfig;
}

export interface RenderMessage {
  type: 'render';
  id: number;
  module: string;
  key: string;
  location: { pathname: string; search: string; state?: unknown };
  auth: AreaAuth;
  budgetMs: number;
}

/** The answer to a catalogue call the process asked for, as the catalogue gave it. */
export interface FetchedMessage {
  type: 'fetched';
  id: number;
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  body: string;
}

/** A catalogue call the server did not make (not a catalogue GET a page makes, over a cap) or that failed. */
export interface FetchFailedMessage {
  type: 'fetch-failed';
  id: number;
  message: string;
}

export type ToWorker = LoadMessage | RenderMessage | FetchedMessage | FetchFailedMessage;

/** The release's pages loaded and initialised: the process takes renders from now on. */
export interface ReadyMessage {
  type: 'ready';
}
/** The release could not be loaded; the process exits after saying so. */
export interface LoadFailedMessage {
  type: 'load-failed';
  message: string;
}
/** A render's outcome. `errors` are the messages of what the page threw while rendering. */
export interface RenderedMessage {
  type: 'rendered';
  id: number;
  html: string;
  catalogue: Record<string, unknown>;
  errors: string[];
  cutShort: boolean;
}
export interface RenderFailedMessage {
  type: 'render-failed';
  id: number;
  message: string;
}
/** A catalogue call: the process's fetch, made by the server for it. */
export interface FetchMessage {
  type: 'fetch';
  id: number;
  url: string;
}

export type FromWorker = ReadyMessage | LoadFailedMessage | RenderedMessage | RenderFailedMessage | FetchMessage;

/** The largest frame a render process may send: a page's HTML and its catalogue answers fit many times over. */
export const MAX_FROM_WORKER_BYTES = 8 * 1024 * 1024;
/** The largest frame the server sends: a release's server build, or a catalogue answer. */
export const MAX_TO_WORKER_BYTES = 32 * 1024 * 1024;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, max = 300): string => (typeof value === 'string' ? value : '').slice(0, max);
const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/**
 * A message from a render process as the server may use it, or null when it is not one: the
 * process runs a team's code, which can write anything into its descriptors, so nothing it sends
 * is trusted to have the protocol's shape. Null ends the process (docs/sandbox.md).
 */
export function readMessage(raw: unknown): FromWorker | null {
  if (!isRecord(raw)) return null;
  switch (raw.type) {
    case 'ready':
      return { type: 'ready' };
    case 'load-failed':
      return typeof raw.message === 'string' ? { type: 'load-failed', message: text(raw.message) } : null;
    case 'render-failed':
      return isId(raw.id) && typeof raw.message === 'string' ? { type: 'render-failed', id: raw.id, message: text(raw.message) } : null;
    case 'rendered':
      if (!isId(raw.id) || typeof raw.html !== 'string' || !isRecord(raw.catalogue) || !Array.isArray(raw.errors) || typeof raw.cutShort !== 'boolean') return null;
      return { type: 'rendered', id: raw.id, html: raw.html, catalogue: raw.catalogue, errors: raw.errors.map((error) => text(error)), cutShort: raw.cutShort };
    case 'fetch':
      return isId(raw.id) && typeof raw.url === 'string' && raw.url.length <= 2048 ? { type: 'fetch', id: raw.id, url: raw.url } : null;
    default:
      return null;
  }
}
