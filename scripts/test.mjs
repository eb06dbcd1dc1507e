// `npm test`: every stage in order, each timed, stopping at the first that fails. The stages are
// the package's own scripts (lint, typecheck, test:unit, e2e, e2e:cluster), so each runs alone
// too; docs/testing.md says what each covers.
import { spawnSync } from 'node:child_process';

const STAGES = ['lint', 'typecheck', 'test:unit', 'e2e', 'e2e:cluster'];
const times = [];
const started = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;

for (const stage of STAGES) {
  const began = Date.now();
  const { status, signal } = spawnSync('npm', ['run', '--silent', stage], { stdio: 'inherit' });
  times.push(`${stage} ${seconds(Date.now() - began)}`);
  console.log(`\n[npm test] ${stage}: ${status === 0 ? 'passed' : `FAILED (${signal ?? `exit ${status}`})`} in ${seconds(Date.now() - began)}`);
  if (status !== 0) {
    console.log(`[npm test] stages: ${times.join(' · ')} · total ${seconds(Date.now() - started)}`);
    process.exit(status ?? 1);
  }
}
console.log(`[npm test] stages: ${times.join(' · ')} · total ${seconds(Date.now() - started)}`);
