import { getDefaultStore } from 'jotai';
import { authAtom } from '@netnet/shared';

// Whom the bucket belongs to: the member's uid once signed in, else a random id this browser keeps.
// Read when a remote is first needed (see federation/rolloutPlugin.ts): the shell shows its
// spinner until a returning member's auth state is known, so members' areas use the uid.
const DEVICE_ID = 'netnet:device-id';

function randomId(): string {
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

let unsaved: string | null = null;

export function deviceId(): string {
  try {
    let id = localStorage.getItem(DEVICE_ID);
    if (!id) {
      id = randomId();
      localStorage.setItem(DEVICE_ID, id);
    }
    return id;
  } catch {
    // storage refused: sticky for this page only
    return (unsaved ??= randomId());
  }
}

export function bucketIdentity(): string {
  const auth = getDefaultStore().get(authAtom);
  return auth.status === 'authenticated' ? auth.member.uid : deviceId();
}
