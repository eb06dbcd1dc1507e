// Generated posters and backdrops: an SVG per title, drawn from its name and a palette derived
// from (seed, type, id), at the pixel size of the TMDB size asked for.
import { parseArtworkFile, type ArtworkKind } from './data/artwork';
import { genresOf } from './data/genres';
import { isoDate, type Catalogue, type TitleRecord } from './data/model';
import { int, streamFor } from './data/random';

/** TMDB's image sizes (by width); 'original' is a generous fixed size. */
export const IMAGE_WIDTHS = {
  w92: 92,
  w154: 154,
  w185: 185,
  w342: 342,
  w500: 500,
  w780: 780,
  w1280: 1280,
  original: 0,
} as const;

export type ImageSize = keyof typeof IMAGE_WIDTHS;

export const isImageSize = (size: string): size is ImageSize => Object.hasOwn(IMAGE_WIDTHS, size);

export function pixelSize(kind: ArtworkKind, size: ImageSize): { width: number; height: number } {
  if (size === 'original') return kind === 'poster' ? { width: 1000, height: 1500 } : { width: 1920, height: 1080 };
  const width = IMAGE_WIDTHS[size];
  return { width, height: Math.round(kind === 'poster' ? (width * 3) / 2 : (width * 9) / 16) };
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The title a file name refers to, if it is one of this catalogue's current artworks. */
export function findArtwork(catalogue: Catalogue, file: string): { title: TitleRecord; kind: ArtworkKind } | null {
  const ref = parseArtworkFile(file);
  if (!ref) return null;
  const title = catalogue.byId[ref.type].get(ref.id);
  if (!title) return null;
  const path = ref.kind === 'poster' ? title.posterPath : title.backdropPath;
  return path === `/${file}` ? { title, kind: ref.kind } : null;
}

/** Splits a name into at most `maxLines` lines of about `width` characters. */
function wrap(text: string, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    lines.length = maxLines;
    lines[maxLines - 1] = `${lines[maxLines - 1]!.replace(/\s*\S*$/, '')}…`;
  }
  return lines;
}

export function renderArtwork(catalogue: Catalogue, title: TitleRecord, kind: ArtworkKind, size: ImageSize): string {
  const { width, height } = pixelSize(kind, size);
  const random = streamFor(catalogue.seed, title.type, title.id, 'artwork');
  const hue = int(random, 0, 359);
  const hue2 = (hue + int(random, 30, 150)) % 360;
  // A fixed design space; the outer width/height scale it to the size asked for.
  const [vw, vh] = kind === 'poster' ? [200, 300] : [320, 180];
  const genre = genresOf(title.type).find((g) => g.id === title.genreIds[0])?.name ?? '';
  const year = isoDate(title.day).slice(0, 4);

  const shapes: string[] = [];
  for (let i = 0; i < 5; i++) {
    const r = int(random, 20, 90);
    shapes.push(
      `<circle cx="${int(random, 0, vw)}" cy="${int(random, 0, vh)}" r="${r}" fill="hsl(${(hue + i * 40) % 360} 70% 60%)" fill-opacity="0.${int(random, 10, 25)}"/>`,
    );
  }

  const poster = kind === 'poster';
  const fontSize = poster ? 22 : 20;
  const lines = wrap(title.name, poster ? 14 : 26, poster ? 4 : 2);
  const lineHeight = fontSize * 1.15;
  const firstY = poster ? vh - 70 - (lines.length - 1) * lineHeight : vh - 38 - (lines.length - 1) * lineHeight;
  const x = poster ? vw / 2 : 18;
  const anchor = poster ? 'middle' : 'start';
  const text = lines
    .map((line, i) => `<tspan x="${x}" y="${(firstY + i * lineHeight).toFixed(1)}">${escapeXml(line)}</tspan>`)
    .join('');

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${vw} ${vh}" role="img" aria-label="${escapeXml(title.name)}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="hsl(${hue} 55% 28%)"/><stop offset="1" stop-color="hsl(${hue2} 60% 12%)"/>` +
    `</linearGradient><linearGradient id="s" x1="0" y1="0" x2="0" y2="1">` +
    `<stop offset="0.45" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.75"/></linearGradient></defs>` +
    `<rect width="${vw}" height="${vh}" fill="url(#g)"/>${shapes.join('')}<rect width="${vw}" height="${vh}" fill="url(#s)"/>` +
    `<text x="${poster ? vw / 2 : 18}" y="${poster ? 24 : 22}" text-anchor="${anchor}" font-family="Helvetica, Arial, sans-serif" font-size="10" font-weight="700" letter-spacing="3" fill="#e50914">NETNET</text>` +
    `<text text-anchor="${anchor}" font-family="Helvetica, Arial, sans-serif" font-size="${fontSize}" font-weight="700" fill="#fff">${text}</text>` +
    `<text x="${x}" y="${poster ? vh - 22 : vh - 14}" text-anchor="${anchor}" font-family="Helvetica, Arial, sans-serif" font-size="11" fill="#fff" fill-opacity="0.8">${escapeXml(`${genre} · ${year}`)}</text>` +
    `</svg>`
  );
}
