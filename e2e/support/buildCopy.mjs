// A remote's production build copied as another version, for tests and benchmarks that publish
// releases of their own with `npm run release -- <remote> --version <v> --from <copy>` (no build
// here). The manifest names the new version; `without` leaves one exposed page's chunks out, as a
// broken release would be.
import { cpSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Copies `<root>/<remote>/dist` to `copy` as `version`.
 * @param {{ root: string, remote: string, version: string, copy: string, without?: string }} options
 */
export function copyBuildAs({ root, remote, version, copy, without }) {
  cpSync(join(root, remote, 'dist'), copy, { recursive: true });
  const manifestPath = join(copy, 'mf-manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  manifest.metaData.buildInfo.buildVersion = version;
  writeFileSync(manifestPath, JSON.stringify(manifest));
  // Its precompressed copies hold the old text: the releases origin would serve them, not matching its hash.
  for (const suffix of ['.br', '.gz']) rmSync(`${manifestPath}${suffix}`, { force: true });
  if (!without) return;
  const chunks = readdirSync(copy).filter((file) => file.startsWith(`__federation_expose_${without}.`) && file.includes('.js'));
  if (chunks.length === 0) throw new Error(`no chunk of ${without} in ${remote}'s build`);
  for (const name of chunks) unlinkSync(join(copy, name));
}
