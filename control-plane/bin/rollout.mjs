// `npm run rollout -- <command>`: the release owner's controls over one environment's rollout file
// (deploy/rollout.<env>.json). Every change is checked against the deploy tree and written
// atomically under a lock (two commands at once both land, or one fails loudly); members pick
// it up on their next page load. `status` and `guard` read the environment's release health, which
// the site's server collects (README.md, "Reading release health").
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { runCli } from '../src/deploy/cli.mjs';
import { checkCompatibility, OVERRIDE_FLAG } from '../src/deploy/compatibilityGate.mjs';
import { guardCommand, guardOptions } from '../src/deploy/guardCommand.mjs';
import { healthReport } from '../src/deploy/healthStatus.mjs';
import { remoteMapFor } from '../src/deploy/remoteMap.mjs';
import { parsePercent, promote, rollback, setCanary, setStable } from '../src/deploy/rolloutCommands.mjs';
import { emptyRollout, environmentName, readRollout, rolloutPath, updateRollout } from '../src/deploy/rolloutFile.mjs';
import { DeployError, publishedVersions } from '../src/deploy/tree.mjs';

const site = createRequire(import.meta.url)('../../scripts/site.cjs');

const USAGE = `usage: npm run rollout -- <command> [--env <name>]
  status [--json]                                what each remote serves, how its releases fared in the last hour
                                                 and what the guard decided and why (--json: the map the shell reads)
  stable   <remote> <version>                    make a published version stable at once
  canary   <remote> <version> --percent <0-100>  send a share of members to a published version
  promote  <remote>                              the canary becomes stable for everyone
  rollback <remote>                              drop the canary, or with none go back to the previous stable
  guard [--stages 10,25,50,100] [--min-stage-sessions <n>] [--interval <seconds>] [--once]
                                                 roll back canaries worse than their stable (failure rate, LCP p75)
                                                 and, with --stages, widen healthy ones; runs until SIGINT/SIGTERM
                                                 (every 5 s; at least 200 sessions a stage), --once: one pass
  stable, canary and promote refuse a release whose mf-manifest.json needs shared packages in versions
  the shell does not provide; ${OVERRIDE_FLAG} rolls it out anyway (with a warning).
  --env defaults to $NETNET_ENV or "local".`;

const SKIP = OVERRIDE_FLAG.slice(2);

// Which flags each command takes: a flag given to another command is a slip, refused rather than ignored.
const FLAGS = {
  status: ['json'],
  stable: [SKIP],
  canary: ['percent', SKIP],
  promote: [SKIP],
  rollback: [],
  guard: ['stages', 'min-stage-sessions', 'interval', 'once'],
};

function describe(rollout, remote) {
  const plan = rollout?.remotes[remote];
  const published = publishedVersions(remote);
  const parts = plan
    ? [`stable ${plan.stable}`, plan.canary && `canary ${plan.canary.version} at ${plan.canary.percent}%`]
    : [`own build (${site.remoteMap().remotes[remote].stable.entry})`];
  if (plan?.history?.length) parts.push(`history ${plan.history.join(', ')}`);
  parts.push(published.length ? `published ${published.join(', ')}` : 'nothing published');
  return `${remote.padEnd(14)} ${parts.filter(Boolean).join(' · ')}`;
}

const shown = (path) => {
  const nearby = relative(process.cwd(), path);
  return nearby && !nearby.startsWith('..') ? nearby : path;
};

async function main() {
  const { values, positionals } = parseArgs({
    options: {
      env: { type: 'string' },
      percent: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
      [SKIP]: { type: 'boolean' },
      stages: { type: 'string' },
      'min-stage-sessions': { type: 'string' },
      interval: { type: 'string' },
      once: { type: 'boolean' },
    },
    allowPositionals: true,
  });
  const [command, remote, version] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    if (!values.help) process.exitCode = 1;
    return;
  }
  if (!Object.hasOwn(FLAGS, command)) throw new DeployError(`Unknown command "${command}".\n${USAGE}`);
  const stray = Object.keys(values).find((flag) => !['env', 'help', ...FLAGS[command]].includes(flag));
  if (stray) throw new DeployError(`--${stray} is not an option of "${command}" (npm run rollout -- --help lists each command's).`);
  const environment = environmentName(process.env, values.env);

  if (command === 'status') {
    const current = readRollout(environment);
    if (values.json) return console.log(JSON.stringify(remoteMapFor(environment), null, 2));
    const health = healthReport({ environment, rollout: current, remotes: site.remotes, show: shown });
    console.log(`environment ${environment} (${current ? shown(rolloutPath(environment)) : 'nothing rolled out yet'})`);
    for (const line of [...health.header, '']) console.log(line);
    for (const name of site.remotes) {
      const details = health.byRemote.get(name);
      // A blank line after a remote's details keeps the next remote's line from reading as one of them.
      for (const line of [describe(current, name), ...details, ...(details.length ? [''] : [])]) console.log(line);
    }
    return;
  }
  if (command === 'guard') {
    // Checked before the first pass: a deployment job with a typo fails at once, not later.
    const options = guardOptions(values);
    return guardCommand({ environment, options, show: shown });
  }

  // Each move gives the new rollout and the release it points members at (`gated`), which the
  // compatibility gate checks once the command itself found it valid: a version that is not
  // published gets that message, not the gate's.
  let move;
  if (command === 'stable') move = (rollout) => ({ next: setStable(rollout, remote, version), gated: version });
  else if (command === 'canary') {
    if (values.percent === undefined) throw new DeployError('canary needs --percent <0-100>.');
    const percent = parsePercent(values.percent);
    move = (rollout) => ({ next: setCanary(rollout, remote, version, percent), gated: version });
  } else if (command === 'promote') {
    move = (rollout) => ({ next: promote(rollout, remote), gated: rollout.remotes[remote].canary.version });
  } else move = (rollout) => ({ next: rollback(rollout, remote) });

  // Applied to the rollout as it is once the lock is ours, not as it was read above: a command
  // running at the same time may have changed it meanwhile (for promote, which canary it is).
  let next;
  const path = await updateRollout(environment, (latest) => {
    const moved = move(latest ?? emptyRollout());
    if (moved.gated !== undefined) {
      checkCompatibility({ remote, version: moved.gated, skip: values[SKIP], warn: (line) => console.error(line) });
    }
    next = moved.next;
    return next;
  });
  console.log(`${environment}: ${describe(next, remote)}`);
  console.log(`written to ${shown(path)}; members get it on their next page load.`);
}

runCli(main);
