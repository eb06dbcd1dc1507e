// Which content coding a page goes out in, from the request's Accept-Encoding (RFC 9110, 12.5.3):
// a coding with q=0 is refused outright, `*` stands for every coding not named, and among those
// left the highest weight wins, brotli on a tie. No header, or nothing acceptable: identity.
// The one reading of the header for the shell's pages and for every file the site serves.

export type Coding = 'br' | 'gzip';

const WEIGHT = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;
const ALIASES: Record<string, string> = { 'x-gzip': 'gzip' };

/** The weight of each coding the header names (`*` included); an element with a malformed weight is left out. */
export function acceptedCodings(header: string | undefined): Map<string, number> {
  const weights = new Map<string, number>();
  for (const element of (header ?? '').split(',')) {
    const [rawName = '', ...params] = element.split(';').map((part) => part.trim());
    const name = ALIASES[rawName.toLowerCase()] ?? rawName.toLowerCase();
    if (!name) continue;
    let weight = 1;
    let malformed = false;
    for (const param of params) {
      const match = WEIGHT.exec(param.replace(/\s+/g, ''));
      if (match) weight = Number(match[1]);
      else if (/^q=/i.test(param)) malformed = true;
    }
    if (!malformed) weights.set(name, Math.max(weight, weights.get(name) ?? 0));
  }
  return weights;
}

/** The codings of `offered` (in the server's order of preference) the client accepts, the heaviest first; a tie keeps the server's order. */
export function acceptableEncodings(header: string | undefined, offered: readonly Coding[] = ['br', 'gzip']): Coding[] {
  const weights = acceptedCodings(header);
  const weightOf = (coding: Coding) => weights.get(coding) ?? weights.get('*') ?? 0;
  return offered.filter((coding) => weightOf(coding) > 0).sort((a, b) => weightOf(b) - weightOf(a));
}

/** The coding to send among `offered` (in the server's order of preference), or null for identity. */
export function chooseEncoding(header: string | undefined, offered: readonly Coding[] = ['br', 'gzip']): Coding | null {
  return acceptableEncodings(header, offered)[0] ?? null;
}
