// Poster and backdrop URLs: served by the catalogue service under /t/p/{size}/ (generated
// pictures offline, TMDB's through the proxy), requested at the size they are shown (docs/product.md#images).
import { getRuntimeConfig } from '../config';

/** TMDB's image sizes; posters are 2:3 and backdrops 16:9 at each width. */
export type ImageSize = 'w92' | 'w154' | 'w185' | 'w342' | 'w500' | 'w780' | 'w1280' | 'original';

/** The image URL for a catalogue poster_path/backdrop_path; null when the title has none. */
export function imageUrl(path: string | null | undefined, size: ImageSize): string | null {
  if (!path) return null;
  if (/^https?:\/\//.test(path)) return path;
  const base = getRuntimeConfig().catalogueUrl.replace(/\/+$/, '');
  return `${base}/t/p/${size}/${path.replace(/^\/+/, '')}`;
}
