import type { RuntimeConfig } from '@netnet/shared';
import type { RemoteName } from '../federation/remotes';
import type { ChosenRelease } from '../rollout/remoteVersions';
import type { GuardState } from '../auth/guards';

// What the shell's server hands the browser with a page it rendered
// (docs/architecture.md#server-rendering): the browser boots from it instead of asking for
// /config.json and /remotes.json, loads the releases the server used, and finds the catalogue
// answers the page was rendered with. It travels as JSON in a <script type="application/json">,
// which a browser never runs, so the page keeps its no-inline-script policy.

export const SERVER_STATE_ID = 'netnet-state';


export interface ServerState {
  config: RuntimeConfig;
  /** The remote map as /remotes.json would have answered this request. */
  map: unknown;
  /**
   * The release the server rendered each area with; `fellBackFrom` when that is stable because the
   * member's canary or pin failed on the server by its own fault (it failed to load, or threw).
   */
  chosen: Partial<Record<RemoteName, ChosenRelease>>;
  /** Catalogue answers by URL. */
  catalogue: Record<string, unknown>;
  /** The page's release-health ticket: its reports count only with it (docs/release-health.md). */
  ticket?: string;
  /** The member the page was rendered for (the hint cookie), or null for a visitor. */
  member: string | null;
  /**
   * Set when the server rendered another page than the address asked for (a guard's answer):
   * `from`, a visitor's members' path, kept for after signing in; `state`, the location state it
   * rendered with (auth/guards.tsx, GuardState).
   */
  redirect?: { to: string; from?: string; state?: GuardState };
}

// JSON inside a <script> ends at the first "</script" and is HTML-parsed around "<!--"; U+2028 and
// U+2029 end a line for older JavaScript parsers. Escaped, none of them can appear in the text.
const UNSAFE = /[<>&\u2028\u2029]/g;
const escapeChar = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** JSON safe to place between <script type="application/json"> and </script>. */
export function serializeState(state: ServerState): string {
  return JSON.stringify(state).replace(UNSAFE, escapeChar);
}

/** The state of a page the server rendered, once; null for a page the browser renders alone. */
export function readServerState(doc: Document = document): ServerState | null {
  const element = doc.getElementById(SERVER_STATE_ID);
  if (!element?.textContent) return null;
  element.remove();
  try {
    const state = JSON.parse(element.textContent) as ServerState;
    return state && typeof state === 'object' && state.config ? state : null;
  } catch {
    return null;
  }
}
