import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// DESIGN §2 as a test: imports flow one way (shared → remotes → shell at run time only), and the
// router is reached through `shared` so that exactly one, trimmed, router runs in the page.
const root = join(__dirname, '..', '..');
const apps = ['shell', 'remote-auth', 'remote-browse', 'remote-title', 'remote-search'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

/** Every module specifier a file imports, statically or with import(). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|^import\s+)'([^']+)'/gm)].map((match) => match[1]!);
}

const importsIn = (folder: string) =>
  sources(join(root, folder, 'src')).flatMap((file) =>
    importsOf(file).map((specifier) => ({ file: relative(root, file), specifier })),
  );

describe('dependency direction', () => {
  it('shared imports no app', () => {
    const offending = importsIn('shared').filter(({ specifier }) =>
      apps.some((app) => specifier === app || specifier.includes(`${app}/`)),
    );
    expect(offending).toEqual([]);
  });

  it.each(apps.filter((app) => app.startsWith('remote-')))('%s imports no other app', (remote) => {
    const others = apps.filter((app) => app !== remote);
    const offending = importsIn(remote).filter(({ specifier }) =>
      others.some((app) => specifier === app || specifier.includes(`${app}/`)),
    );
    expect(offending).toEqual([]);
  });

  it('only shared/src/router.ts imports React Router', () => {
    const offending = ['shared', ...apps]
      .flatMap(importsIn)
      .filter(({ file, specifier }) => /^react-router/.test(specifier) && file !== join('shared', 'src', 'router.ts'));
    expect(offending).toEqual([]);
  });
});
