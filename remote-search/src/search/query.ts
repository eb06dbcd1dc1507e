// The one place a search query is made safe to show, fetch and put in a URL: it arrives from the
// search box and from `?q=` (typed, pasted or shared), so both go through the same rules.

/** Long enough for any title or genre; short enough that a pasted essay stays a sane request. */
export const MAX_QUERY_LENGTH = 100;

// Control characters (newlines, tabs, NUL…) and every kind of space count as one plain space.
const SPACES = /[\p{Cc}\p{Z}\s]+/gu;
// Invisible characters that carry no meaning in a search but can hide or reorder text: zero-width
// space, word joiner, BOM, and the direction marks, embeddings, overrides and isolates (a shared
// link with U+202E would otherwise show its heading backwards). ZWJ/ZWNJ stay: emoji and some
// scripts need them.
const INVISIBLE = /[\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/gu;

/**
 * NFC-normalised (so 'é' typed two ways is one query), invisible characters dropped, whitespace
 * collapsed and trimmed, cut to MAX_QUERY_LENGTH characters without splitting a character.
 * '' means "no query".
 * Markup is left as it is: React shows it as text and the client encodes it into the URL.
 */
export function cleanQuery(raw: string | null | undefined): string {
  if (!raw) return '';
  const collapsed = raw.normalize('NFC').replace(INVISIBLE, '').replace(SPACES, ' ').trim();
  const characters = Array.from(collapsed);
  if (characters.length <= MAX_QUERY_LENGTH) return collapsed;
  return characters.slice(0, MAX_QUERY_LENGTH).join('').trimEnd();
}

// Emoji carry no words a title could match: "🎬 the" searches for "the". The pictographs, and the
// marks that build emoji from them (variation selectors, ZWJ, keycaps, skin tones, flags' letters).
const PICTOGRAPHS = /\p{Extended_Pictographic}|[\u{1F3FB}-\u{1F3FF}\u{1F1E6}-\u{1F1FF}]|\u20e3|\ufe0e|\ufe0f|\u200d/gu;

/** What the catalogue is asked for a cleaned query: its words, without emoji (the query itself if nothing else is left). */
export function searchTerms(query: string): string {
  const words = query.replace(PICTOGRAPHS, ' ').replace(/\s+/g, ' ').trim();
  return words || query;
}

/**
 * A `?q=` whose percent-encoding is broken (`%E0%A4%A`): the browser's decoding would turn it into
 * replacement characters, so the page says the link is damaged instead of searching for garble.
 */
export function isDamagedQuery(search: string): boolean {
  for (const part of search.replace(/^\?/, '').split('&')) {
    const at = part.indexOf('=');
    if ((at < 0 ? part : part.slice(0, at)) !== 'q' || at < 0) continue;
    try {
      decodeURIComponent(part.slice(at + 1).replace(/\+/g, ' '));
    } catch {
      return true;
    }
  }
  return false;
}
