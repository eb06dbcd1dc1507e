import { getDefaultStore } from 'jotai';
import { authAtom } from '@netnet/shared';
import { DEVICE_COOKIE, idCookie, isId, readIdCookie } from './cookies';

// Whom the bucket belongs to: the member's uid once signed in, else a random id this browser keeps.
// Read when a remote is first needed (see federation/rolloutPlugin.ts): by then a returning
// member's uid is known from the member hint cookie, so members' areas use the uid. The
// device id lives in a first-party cookie, so the shell's server buckets this browser alike
// (./cookies.ts); the shell's first versions kept it in localStorage, which it moves from.
const OLD_DEVICE_ID = 'netnet:device-id';

function randomId(): string {
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

let unsaved: string | null = null;

function movedFromStorage(): string | null {
  try {
    const id = localStorage.getItem(OLD_DEVICE_ID);
    localStorage.removeItem(OLD_DEVICE_ID);
    return id !== null && isId(id) ? id : null;
  } catch {
    return null;
  }
}

export function deviceId(): string {
  const kept = readIdCookie(document.cookie, DEVICE_COOKIE);
  if (kept) return kept;
  const id = unsaved ?? movedFromStorage() ?? randomId();
  document.cookie = idCookie(DEVICE_COOKIE, id, { secure: window.location.protocol === 'https:' });
  // With cookies refused, the id is sticky for this page only.
  if (readIdCookie(document.cookie, DEVICE_COOKIE) !== id) unsaved = id;
  return id;
}

export function bucketIdentity(): string {
  const auth = getDefaultStore().get(authAtom);
  return auth.status === 'authenticated' ? auth.member.uid : deviceId();
}
