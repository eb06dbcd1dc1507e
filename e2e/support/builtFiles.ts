import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { webApps } from './site';


// The files the site serves, read from disk: what a browser (or an attacker) can download.

export const root = join(__dirname, '..', '..');

const TEXT = /\.(js|mjs|css|html|json|map|txt|svg)$/;

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

/** Every text file under the given folders (compressed copies hold the same text). */
export function textFilesIn(dirs: string[]): string[] {
  return dirs.filter((dir) => existsSync(dir)).flatMap((dir) => [...walk(dir)].filter((path) => TEXT.test(path)));
}

/** The folders served to browsers: each app's build, and the published releases. */
export function servedFolders(): string[] {
  return [...webApps.map((app) => join(root, app, 'dist')), join(root, 'deploy')];
}

export interface SecretPattern {
  name: string;
  pattern: RegExp;
}

/** Shapes of credentials that must never reach a browser. */
export function secretPatterns(env: NodeJS.ProcessEnv = process.env): SecretPattern[] {
  const patterns: SecretPattern[] = [
    { name: 'Google API key', pattern: /AIza[0-9A-Za-z_-]{35}/ },
    { name: 'TMDB v3 api_key', pattern: /api_key=[0-9a-f]{32}\b/i },
    { name: 'TMDB v4 read token', pattern: /eyJhbGciOiJIUzI1NiJ9\.eyJhdWQiOi/ },
    { name: 'private key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ },
  ];
  for (const name of ['TMDB_API_KEY', 'FIREBASE_API_KEY']) {
    const value = env[name];
    if (value && value.length >= 8) patterns.push({ name: `${name} from the environment`, pattern: new RegExp(value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });
  }
  return patterns;
}

/** "file: what it holds" for each secret found. */
export function findSecrets(files: string[], patterns: SecretPattern[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const { name, pattern } of patterns) {
      if (pattern.test(text)) found.push(`${relative(root, file)}: ${name}`);
    }
  }
  return found;
}

/** <script> tags without a src, and inline event-handler attributes, in an HTML document. */
export function inlineScriptsIn(html: string): string[] {
  const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attributes, body]) => !/\bsrc\s*=/.test(attributes ?? '') || (body ?? '').trim() !== '')
    .map(([tag]) => tag.slice(0, 80));
  const handlers = [...html.matchAll(/<[^>]+\son[a-z]+\s*=/gi)].map(([tag]) => tag.slice(0, 80));
  return [...inline, ...handlers];
}
