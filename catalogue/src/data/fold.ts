/**
 * The case- and accent-insensitive form used for names and queries alike, so 'amelie' finds
 * 'Amélie' and 'DRAMA' names the Drama genre.
 */
export function fold(text: string): string {
  // Most names are ASCII: skip the (comparatively slow) Unicode normalisation for them.
  const plain = /^[\x20-\x7e]*$/.test(text) ? text : text.normalize('NFKD').replace(/\p{M}+/gu, '');
  return plain.toLowerCase().replace(/\s+/g, ' ').trim();
}
