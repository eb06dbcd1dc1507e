import type { Release } from '@netnet/rollout';

// The page around a server render: the shell's built index.html, with the area's style sheets
// and the files hydration needs linked in its head, the render in #root and the state after it.

export interface Template {
  /** Up to (not including) </head>. */
  head: string;
  /** From </head> to the inside of #root. */
  bodyStart: string;
  /** From the end of #root to the end. */
  bodyEnd: string;
  /** The shell's own files, for Early Hints. */
  shellFiles: string[];
}

const ROOT = /<div id=("?)root\1><\/div>/;

export function parseTemplate(html: string): Template {
  const headEnd = html.indexOf('</head>');
  const root = ROOT.exec(html);
  if (headEnd < 0 || !root) throw new Error('The shell’s index.html has no </head> or no empty #root.');
  const open = root[0].replace('</div>', '');
  const shellFiles = [...html.slice(0, headEnd).matchAll(/<(?:link|script)\b[^>]*?\b(?:href|src)=("?)([^"\s>]+)\1/g)]
    .map((match) => match[2]!)
    .filter((file) => /\.(js|css)$/.test(file));
  return {
    head: html.slice(0, headEnd),
    bodyStart: html.slice(headEnd, root.index) + open,
    bodyEnd: `</div>${html.slice(root.index + root[0].length)}`,
    shellFiles,
  };
}

/** A Link header value for Early Hints. */
export const hintOf = (file: string): string =>
  `<${file}>; rel=preload; as=${file.endsWith('.css') ? 'style' : 'script'}`;

export interface AreaFiles {
  css: string[];
  scripts: string[];
  /** The release's manifest, which the browser's federation runtime fetches first. */
  manifest: string;
  /** Script preloads need the mode the runtime will load them with: anonymous CORS when the release's hashes are checked. */
  crossOrigin: boolean;
}

interface Manifest {
  metaData?: { remoteEntry?: { name?: string; path?: string } };
  exposes?: Array<{ name?: string; assets?: { js?: { sync?: string[] }; css?: { sync?: string[]; async?: string[] } } }>;
}

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The links for an area's files, for the head. With `hashes` (a checked release's record, by URL)
 * each link carries its file's hash, and a file the record does not vouch for is not linked.
 */
export function areaLinks(files: AreaFiles, hashes?: ReadonlyMap<string, string>): string {
  const cors = files.crossOrigin ? ' crossorigin="anonymous"' : '';
  const vouched = (href: string) => !hashes || hashes.has(href);
  const checked = (href: string, mode = cors) => {
    const hash = hashes?.get(href);
    return hash ? ` crossorigin="anonymous" integrity="${attribute(hash)}"` : mode;
  };
  // Fetch preloads take no hash (the browser ignores it): the runtime's own fetch checks them. With
  // hashes, the release's record is preloaded too: its chunks wait for it.
  const fetched = [files.manifest, ...(hashes ? [new URL('integrity.json', files.manifest).href] : [])];
  return [
    ...files.css.filter(vouched).map((href) => `<link rel="stylesheet" href="${attribute(href)}"${checked(href, '')}>`),
    ...fetched.map((href) => `<link rel="preload" as="fetch" href="${attribute(href)}" crossorigin="anonymous">`),
    ...files.scripts.filter(vouched).map((href) => `<link rel="preload" as="script" href="${attribute(href)}"${checked(href)}>`),
  ].join('');
}

const manifests = new Map<string, Promise<Manifest>>();

/** The files of `module` in `release`'s browser build, read from its manifest (fetched once per release). */
export async function areaFiles(release: Release, module: string): Promise<AreaFiles> {
  let manifest = manifests.get(release.entry);
  if (!manifest) {
    manifest = fetch(release.entry, { signal: AbortSignal.timeout(5_000) }).then((response) => {
      if (!response.ok) throw new Error(`${release.entry} answered HTTP ${response.status}`);
      return response.json() as Promise<Manifest>;
    });
    manifests.set(release.entry, manifest);
    manifest.catch(() => manifests.delete(release.entry));
  }
  const { metaData, exposes = [] } = await manifest;
  const exposed = exposes.find((expose) => expose.name === module);
  const at = (file: string) => new URL(file, release.entry).href;
  const entryFile = `${metaData?.remoteEntry?.path ? `${metaData.remoteEntry.path}/` : ''}${metaData?.remoteEntry?.name ?? 'remoteEntry.js'}`;
  const css = exposed?.assets?.css ?? {};
  return {
    css: [...(css.sync ?? []), ...(css.async ?? [])].map(at),
    scripts: [entryFile, ...(exposed?.assets?.js?.sync ?? [])].map(at),
    manifest: release.entry,
    crossOrigin: release.integrity !== undefined,
  };
}

/** Forgets the manifests of releases no longer in the map. */
export function keepManifestsOf(releases: readonly Release[]): void {
  const kept = new Set(releases.map((release) => release.entry));
  for (const entry of manifests.keys()) if (!kept.has(entry)) manifests.delete(entry);
}
