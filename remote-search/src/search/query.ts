// The one place a search query is made safe to show, fetch and put in a URL: it arrives from the
// search box and from `?q=` (typed, pasted or shared), so both go through the same rules.

/** Long enough for any title or genre; short enough that a pasted essay stays a sane request. */
export const MAX_QUERY_LENGTH = 100;

// Control characters (newlines, tabs, NUL…) and every kind of space count as one plain space.
const SPACES = /[\p{Cc}\p{Z}\s]+/gu;

/**
 * NFC-normalised (so 'é' typed two ways is one query), whitespace collapsed and trimmed, cut to
 * MAX_QUERY_LENGTH characters without splitting a character. '' means "no query".
 * Markup is left as it is: React shows it as text and the client encodes it into the URL.
 */
export function cleanQuery(raw: string | null | undefined): string {
  if (!raw) return '';
  const collapsed = raw.normalize('NFC').replace(SPACES, ' ').trim();
  const characters = Array.from(collapsed);
  if (characters.length <= MAX_QUERY_LENGTH) return collapsed;
  return characters.slice(0, MAX_QUERY_LENGTH).join('').trimEnd();
}
