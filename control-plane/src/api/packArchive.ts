// A built remote as the one archive the API's publish call takes (control-plane/openapi.yaml): a
// POSIX ustar archive of its regular files, paths relative to the build's root, gzip-compressed.
// Written here rather than by a `tar` program so the CLI works wherever Node does and the archive
// holds exactly what the server accepts: regular files only (a link is refused by the server, so
// the build's links are refused here first), no owner names, times at 0 — the same build gives the
// same bytes, and a retried pipeline finds its release unchanged.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DeployError } from '../errors.ts';

const BLOCK = 512;

/** Every regular file under `dir`, `/`-separated and sorted; a link or any other kind is refused. */
function filesOf(dir: string, root = dir): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    const stat = lstatSync(path);
    if (stat.isDirectory()) files.push(...filesOf(path, root));
    else if (stat.isFile()) files.push(relative(root, path).split(sep).join('/'));
    else throw new DeployError(`${relative(root, path)} in the build is not a regular file (a link?); a release holds regular files only.`);
  }
  return files;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** The 512-byte ustar header of a regular file; a path over 100 bytes is split into prefix and name at a "/". */
function header(path: string, size: number): Buffer {
  let name = path;
  let prefix = '';
  if (Buffer.byteLength(path) > 100) {
    const cut = path.lastIndexOf('/', 155);
    if (cut <= 0 || Buffer.byteLength(path.slice(cut + 1)) > 100 || Buffer.byteLength(path.slice(0, cut)) > 155) {
      throw new DeployError(`${path} is too long a path for a tar archive.`);
    }
    prefix = path.slice(0, cut);
    name = path.slice(cut + 1);
  }
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(0o644, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(0, 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write('0', 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

/** The tar archive of `dir`'s files, uncompressed. */
export function tarOf(dir: string): Buffer {
  const parts: Buffer[] = [];
  for (const path of filesOf(dir)) {
    const content = readFileSync(join(dir, ...path.split('/')));
    parts.push(header(path, content.length), content);
    const padding = (BLOCK - (content.length % BLOCK)) % BLOCK;
    if (padding) parts.push(Buffer.alloc(padding));
  }
  // The end of the archive: two empty blocks.
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

/** The gzip-compressed tar archive of `dir`'s files (Content-Type application/gzip). */
export const packDirectory = (dir: string): Buffer => gzipSync(tarOf(dir), { level: 6 });
