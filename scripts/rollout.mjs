// `npm run rollout -- <command>`: the release owner's controls over one environment's rollout file
// (deploy/rollout.<env>.json). Every change is checked against the deploy tree and written
// atomically under a lock (two commands at once both land, or one fails loudly); members pick
// it up on their next page load.
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { runCli } from './deploy/cli.mjs';
import { remoteMapFor } from './deploy/remoteMap.mjs';
import { parsePercent, promote, rollback, setCanary, setStable } from './deploy/rolloutCommands.mjs';
import { emptyRollout, environmentName, readRollout, rolloutPath, updateRollout } from './deploy/rolloutFile.mjs';
import { DeployError, publishedVersions } from './deploy/tree.mjs';

const site = createRequire(import.meta.url)('./site.cjs');

const USAGE = `usage: npm run rollout -- <command> [--env <name>]
  status [--json]                                what each remote serves (--json: the map the shell reads)
  stable   <remote> <version>                    make a published version stable at once
  canary   <remote> <version> --percent <0-100>  send a share of members to a published version
  promote  <remote>                              the canary becomes stable for everyone
  rollback <remote>                              drop the canary, or with none go back to the previous stable
  --env defaults to $NETNET_ENV or "local".`;

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
    },
    allowPositionals: true,
  });
  const [command, remote, version] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    if (!values.help) process.exitCode = 1;
    return;
  }
  const environment = environmentName(process.env, values.env);
  if (command === 'status') {
    const current = readRollout(environment);
    if (values.json) return console.log(JSON.stringify(remoteMapFor(environment), null, 2));
    console.log(`environment ${environment} (${current ? shown(rolloutPath(environment)) : 'nothing rolled out yet'})`);
    for (const name of site.remotes) console.log(describe(current, name));
    return;
  }

  let move;
  if (command === 'stable') move = (rollout) => setStable(rollout, remote, version);
  else if (command === 'canary') {
    if (values.percent === undefined) throw new DeployError('canary needs --percent <0-100>.');
    const percent = parsePercent(values.percent);
    move = (rollout) => setCanary(rollout, remote, version, percent);
  } else if (command === 'promote') move = (rollout) => promote(rollout, remote);
  else if (command === 'rollback') move = (rollout) => rollback(rollout, remote);
  else throw new DeployError(`Unknown command "${command}".\n${USAGE}`);

  // Applied to the rollout as it is once the lock is ours, not as it was read above: a command
  // running at the same time may have changed it meanwhile.
  let next;
  const path = await updateRollout(environment, (latest) => (next = move(latest ?? emptyRollout())));
  console.log(`${environment}: ${describe(next, remote)}`);
  console.log(`written to ${shown(path)}; members get it on their next page load.`);
}

runCli(main);
