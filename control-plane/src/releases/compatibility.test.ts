// The compatibility gate on small manifests shaped like the ones Module Federation writes.
// Run: node --import tsx --test control-plane/src/releases/compatibility.test.ts
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { describeUnsatisfied, installedVersions, packageOf, providedVersions, unsatisfiedRequirements } from './compatibility.ts';

const shared = (name: string, version: string, requiredVersion: string | false) => ({ id: `x:${name}`, name, version, singleton: true, requiredVersion, fallback: '' });

const shell = {
  name: 'shell',
  shared: [
    shared('@netnet/shared', '1.2.0', '^1.2.0'),
    shared('jotai', '2.20.3', '^2.20.3'),
    shared('react', '19.3.1', '^19.3.1'),
    shared('react-dom', '19.3.1', '^19.3.1'),
    shared('react-dom/client', '19.3.1', '^19.3.1'),
  ],
};

const release = (...entries: unknown[]) => ({ name: 'remote_title', metaData: { buildInfo: { buildVersion: '1.4.0' } }, shared: entries });

describe('the compatibility gate', () => {
  const provided = providedVersions(shell);

  it('reads what the shell provides from its manifest', () => {
    assert.equal(provided.get('react'), '19.3.1');
    assert.equal(provided.get('@netnet/shared'), '1.2.0');
    assert.equal(provided.size, 5);
  });

  it('passes a release whose every requirement the shell satisfies', () => {
    const ok = release(shared('react', '19.3.0', '^19.0.0'), shared('react-dom/client', '19.3.0', '^19.3.0'), shared('@netnet/shared', '1.0.0', '^1.0.0'), shared('jotai', '2.20.3', '~2.20.0'));
    assert.deepEqual(unsatisfiedRequirements(ok, provided), []);
  });

  it('names each unmet requirement with the package and both versions', () => {
    const newer = release(shared('react', '20.0.0', '^20.0.0'), shared('@netnet/shared', '1.3.0', '^1.3.0'), shared('jotai', '2.20.3', '^2.20.3'));
    const unsatisfied = unsatisfiedRequirements(newer, provided);
    assert.deepEqual(unsatisfied, [
      { name: 'react', required: '^20.0.0', provided: '19.3.1' },
      { name: '@netnet/shared', required: '^1.3.0', provided: '1.2.0' },
    ]);
    assert.equal(
      describeUnsatisfied(unsatisfied, { remote: 'remote-title', version: '1.4.0' }),
      'remote-title 1.4.0 needs react ^20.0.0; the shell provides 19.3.1\nremote-title 1.4.0 needs @netnet/shared ^1.3.0; the shell provides 1.2.0',
    );
  });

  it('counts a package the shell does not share as unmet, and an invalid range too', () => {
    const unsatisfied = unsatisfiedRequirements(release(shared('react-router', '7.18.5', '^7.0.0'), shared('react', '19.3.1', 'not a range')), provided);
    assert.deepEqual(unsatisfied, [
      { name: 'react-router', required: '^7.0.0', provided: null },
      { name: 'react', required: 'not a range', provided: '19.3.1' },
    ]);
    assert.match(describeUnsatisfied(unsatisfied.slice(0, 1), { remote: 'remote-title', version: '1.4.0' }), /react-router \^7\.0\.0, which the shell does not share/);
  });

  it('accepts any version where nothing is required', () => {
    assert.deepEqual(unsatisfiedRequirements(release(shared('react', '19.3.1', false), shared('jotai', '2.0.0', '*'), shared('react-dom', '19.0.0', '')), providedVersions({ shared: [] })), []);
    assert.deepEqual(unsatisfiedRequirements({}, provided), []);
  });

  it('reads a pre-release the way npm does: only a range naming one of the same version takes it', () => {
    const rc = providedVersions({ shared: [shared('@netnet/shared', '1.3.0-rc.1', '^1.3.0-rc.1')] });
    assert.deepEqual(unsatisfiedRequirements(release(shared('@netnet/shared', '1.0.0', '^1.0.0')), rc), [{ name: '@netnet/shared', required: '^1.0.0', provided: '1.3.0-rc.1' }]);
    assert.deepEqual(unsatisfiedRequirements(release(shared('@netnet/shared', '1.3.0-rc.0', '^1.3.0-rc.0')), rc), []);
  });

  it('can take the shell’s installed packages instead of its build', () => {
    assert.equal(packageOf('react-dom/client'), 'react-dom');
    assert.equal(packageOf('@netnet/shared/ids'), '@netnet/shared');
    const installed = installedVersions(['react', 'react-dom/client', '@netnet/shared', 'not-a-package-netnet'], { from: join(import.meta.dirname, '..', '..', 'shell') });
    assert.deepEqual([...installed.keys()], ['react', 'react-dom/client', '@netnet/shared']);
    assert.equal(installed.get('react'), installed.get('react-dom/client'));
  });
});
