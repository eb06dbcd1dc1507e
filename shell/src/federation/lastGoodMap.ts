import { fetchRemoteMap, parseRemoteMap, type RemoteMap } from './remoteMap';

// The last map that passed validation, kept in this browser: a broken or unreachable map then
// costs its updates, not the site. Only with no good map ever seen does the shell show its error.
const LAST_GOOD = 'netnet:remote-map';

function remember(map: RemoteMap): void {
  try {
    // The ticket was this page load's: a later load using the copy has none.
    localStorage.setItem(LAST_GOOD, JSON.stringify({ remotes: map.remotes }));
  } catch {
    // storage refused: the next failure has no fallback, as before
  }
}

function lastGood(): RemoteMap | null {
  try {
    const stored = localStorage.getItem(LAST_GOOD);
    return stored ? parseRemoteMap(JSON.parse(stored)) : null;
  } catch {
    return null;
  }
}

export async function loadRemoteMap(source: string | Promise<Response> = '/remotes.json'): Promise<RemoteMap> {
  try {
    const map = await fetchRemoteMap(source);
    remember(map);
    return map;
  } catch (error) {
    const fallback = lastGood();
    if (!fallback) throw error;
    console.warn(`[netnet] ${error instanceof Error ? error.message : String(error)} Using the last good map instead.`);
    return fallback;
  }
}
