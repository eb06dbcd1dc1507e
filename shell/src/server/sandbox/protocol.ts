import type { AuthState, RemoteName, RuntimeConfig } from '@netnet/shared';

// What the shell's server and a release's render process say to each other over the process's IPC
// channel (docs/sandbox.md). The process is handed only what a
// render needs: the release's code (checked against its recorded hash by the server first), the
// runtime config its browser code sees too, and per render the route and the member hint.

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
  config: RuntimeConfig;
}

export interface RenderMessage {
  type: 'render';
  id: number;
  module: string;
  key: string;
  location: { pathname: string; search: string; state?: unknown };
  auth: AuthState;
  budgetMs: number;
}

export type ToWorker = LoadMessage | RenderMessage;

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

export type FromWorker = ReadyMessage | LoadFailedMessage | RenderedMessage | RenderFailedMessage;

/** The longest message a worker may send: a page's HTML and its catalogue answers fit many times over. */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, max = 300): string => (typeof value === 'string' ? value : '').slice(0, max);

/**
 * A message from a render process as the server may use it, or null: the process runs a team's
 * code, which can send anything on the channel (or break JSON in its own realm), so nothing it
 * sends is trusted to have the protocol's shape.
 */
export function readMessage(raw: unknown): FromWorker | null {
  if (!isRecord(raw)) return null;
  switch (raw.type) {
    case 'ready':
      return { type: 'ready' };
    case 'load-failed':
      return { type: 'load-failed', message: text(raw.message) };
    case 'render-failed':
      return typeof raw.id === 'number' ? { type: 'render-failed', id: raw.id, message: text(raw.message) } : null;
    case 'rendered':
      if (typeof raw.id !== 'number' || typeof raw.html !== 'string' || !isRecord(raw.catalogue) || !Array.isArray(raw.errors)) return null;
      return { type: 'rendered', id: raw.id, html: raw.html, catalogue: raw.catalogue, errors: raw.errors.map((error) => text(error)), cutShort: raw.cutShort === true };
    default:
      return null;
  }
}
