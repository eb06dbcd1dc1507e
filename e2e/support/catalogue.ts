import { catalogueApi } from './site';

// The embedded catalogue, asked directly: tests find real titles to look for in the pages.

/** A TMDB v3 call (path after /3/) to the catalogue the site uses. */
export async function catalogueJson<T>(path: string): Promise<T> {
  const response = await fetch(`${catalogueApi}/${path}`);
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return (await response.json()) as T;
}
