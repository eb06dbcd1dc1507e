import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runtimeCoreForRemotes } from './runtimeCore';

// If an upgrade of Module Federation makes its runtime import another name from runtime-core, a
// remote built with `externalRuntime` would find it missing in the page: this test fails first.
it('provides every name the federation runtime imports from runtime-core', () => {
  const runtimeDist = join(dirname(require.resolve('@module-federation/runtime/package.json')), 'dist');
  const imported = new Set<string>();
  for (const file of readdirSync(runtimeDist).filter((name) => name.endsWith('.js'))) {
    const source = readFileSync(join(runtimeDist, file), 'utf8');
    for (const [, names] of source.matchAll(/import \{([^}]+)\} from "@module-federation\/runtime-core"/g)) {
      names!.split(',').forEach((name) => imported.add(name.trim().split(/\s+as\s+/)[0]!));
    }
  }
  expect(imported.size).toBeGreaterThan(5);
  expect(Object.keys(runtimeCoreForRemotes).sort()).toEqual([...imported].sort());
  for (const name of imported) expect(runtimeCoreForRemotes[name as keyof typeof runtimeCoreForRemotes]).toBeDefined();
});
