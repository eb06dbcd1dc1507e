// Poster/backdrop file names. They carry the title's type and id (to find the name to draw) and a
// hash of seed and name, so a different catalogue never reuses a name the browser cached as
// immutable.
import { hash32 } from './random';
import type { MediaType } from './genres';

export type ArtworkKind = 'poster' | 'backdrop';

export function artworkPath(seed: number, type: MediaType, id: number, kind: ArtworkKind, name: string): string {
  const version = hash32(seed, type, id, name).toString(36);
  return `/${type === 'movie' ? 'm' : 't'}${id}${kind === 'poster' ? 'p' : 'b'}-${version}.svg`;
}

export interface ArtworkRef {
  type: MediaType;
  id: number;
  kind: ArtworkKind;
}

const pattern = /^([mt])([1-9]\d{0,9})([pb])-[0-9a-z]{1,7}\.svg$/;

/** The title an artwork file belongs to, or null when the name is not one of ours. */
export function parseArtworkFile(file: string): ArtworkRef | null {
  const match = pattern.exec(file);
  if (!match) return null;
  return {
    type: match[1] === 'm' ? 'movie' : 'tv',
    id: Number(match[2]),
    kind: match[3] === 'p' ? 'poster' : 'backdrop',
  };
}
