// `npm test`: every stage in order, each timed, stopping at the first that fails. The stages are
// the package's own scripts, so each runs alone too (build: only the apps out of date, as `npm
// start` does); docs/testing.md says what each covers.
// Lint and typecheck each keep one core busy: they run side by side, their output held until each
// ends so the two do not interleave.
import { spawn } from 'node:child_process';

const STAGES = [['lint', 'typecheck'], ['test:jest'], ['build'], ['test:node'], ['e2e'], ['e2e:cluster']];
const COMMANDS = { build: ['node', 'scripts/build.mjs'] };
const times = [];
const started = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;

/** Runs one script; alone, its output goes straight through; beside another, it is printed at its end. */
function run(script, alone) {
  return new Promise((resolve) => {
    const began = Date.now();
    const [command, ...args] = COMMANDS[script] ?? ['npm', 'run', '--silent', script];
    const child = spawn(command, args, { stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const output = [];
    if (!alone) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => output.push(chunk));
    child.on('close', (status, signal) => {
      if (output.length > 0) process.stdout.write(Buffer.concat(output));
      const took = seconds(Date.now() - began);
      times.push(`${script} ${took}`);
      console.log(`\n[npm test] ${script}: ${status === 0 ? 'passed' : `FAILED (${signal ?? `exit ${status}`})`} in ${took}`);
      resolve(status === 0 ? 0 : (status ?? 1));
    });
  });
}

for (const stage of STAGES) {
  const statuses = await Promise.all(stage.map((script) => run(script, stage.length === 1)));
  const failed = statuses.find((status) => status !== 0);
  if (failed !== undefined) {
    console.log(`[npm test] stages: ${times.join(' · ')} · total ${seconds(Date.now() - started)}`);
    process.exit(failed);
  }
}
console.log(`[npm test] stages: ${times.join(' · ')} · total ${seconds(Date.now() - started)}`);
