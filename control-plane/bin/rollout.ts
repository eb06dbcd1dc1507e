// `npm run rollout -- <command>`: the release owner's controls over one environment's rollout map
// in the store the running site uses (DATABASE_URL, else the embedded PostgreSQL in deploy/).
// Every change is checked against the published releases and written as a compare-and-set with
// an audit entry (two commands on different remotes both land; two on the same remote at once:
// one lands, the other is refused); every instance of the site has it within a second.
// `status` and `guard` read the environment's release health (README.md, "Reading release health").
// With NETNET_CONTROL_URL and NETNET_TOKEN set, every command but `guard` goes through the
// control-plane API instead (docs/pipelines.md). What it reads from its environment: ROLLOUT_VARIABLES,
// and for `guard`, a process of its own, GUARD_VARIABLES (../src/config.ts).
import { parseArgs } from 'node:util';
import { readConfig } from '@netnet/server-kit';
import site from '@netnet/site';
import { apiTarget } from '../src/api/client.ts';
import { rolloutThroughApi } from '../src/api/rolloutClient.ts';
import { cliActor, runCli } from '../src/cli/run.ts';
import { GUARD_VARIABLES, ROLLOUT_VARIABLES, type RolloutConfig } from '../src/config.ts';
import { OVERRIDE_FLAG } from '../src/releases/compatibilityGate.ts';
import { guardCommand, guardOptions } from '../src/guard/command.ts';
import { healthReport } from '../src/guard/status.ts';
import { remoteMapFor } from '../src/rollouts/remoteMap.ts';
import { parsePercent } from '../src/rollouts/commands.ts';
import { changeRollout, isRolloutCommand } from '../src/rollouts/change.ts';
import { applyPrune, describePlan, planPrune, RETENTION_DAYS } from '../src/releases/prune.ts';
import { DeployError } from '../src/errors.ts';
import { openDatabase, type Store } from '../src/store/database.ts';
import { listReleases, type Releases } from '../src/store/releases.ts';
import { auditTrail, environmentName, readRollout, type Rollout } from '../src/store/rollouts.ts';

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
  prune [--apply]                                releases no environment's map names and no map of the last ${RETENTION_DAYS} days
                                                 named, published more than ${RETENTION_DAYS} days ago: lists them, and why each
                                                 other release stays; --apply removes them from the origin and the store
                                                 (every environment's maps count, whatever --env says)
  stable, canary and promote refuse a release whose mf-manifest.json needs shared packages in versions
  the shell does not provide; ${OVERRIDE_FLAG} rolls it out anyway (with a warning).
  --env defaults to $NETNET_ENV or "local".`;

const SKIP = OVERRIDE_FLAG.slice(2);

// Which flags each command takes: a flag given to another command is a slip, refused rather than ignored.
const FLAGS: Record<string, string[]> = {
  status: ['json'],
  stable: [SKIP],
  canary: ['percent', SKIP],
  promote: [SKIP],
  rollback: [],
  guard: ['stages', 'min-stage-sessions', 'interval', 'once'],
  prune: ['apply'],
};

function describe(config: RolloutConfig, rollout: Rollout | null, remote: string, releases: Releases) {
  const plan = rollout?.remotes[remote];
  const published = (releases.get(remote) ?? []).map((release) => release.version);
  const parts = plan
    ? [`stable ${plan.stable}`, plan.canary && `canary ${plan.canary.version} at ${plan.canary.percent}%`]
    : [`own build (${site.remoteMap(config).remotes[remote]?.stable.entry})`];
  if (plan?.history?.length) parts.push(`history ${plan.history.join(', ')}`);
  parts.push(published.length ? `published ${published.join(', ')}` : 'nothing published');
  return `${remote.padEnd(14)} ${parts.filter(Boolean).join(' · ')}`;
}

const actor = cliActor;

const parseFlags = () =>
  parseArgs({
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
      apply: { type: 'boolean' },
    },
    allowPositionals: true,
  });

async function main() {
  const { values, positionals } = parseFlags();
  const [command, remote, version] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    if (!values.help) process.exitCode = 1;
    return;
  }
  if (!Object.hasOwn(FLAGS, command)) throw new DeployError(`Unknown command "${command}".\n${USAGE}`);
  const stray = Object.keys(values).find((flag) => !['env', 'help', ...(FLAGS[command] ?? [])].includes(flag));
  if (stray) throw new DeployError(`--${stray} is not an option of "${command}" (npm run rollout -- --help lists each command's).`);
  if (command === 'guard') return guard(values);
  const config = readConfig(ROLLOUT_VARIABLES, process.env);
  const environment = environmentName(values.env ?? config.environment);
  // With NETNET_CONTROL_URL and NETNET_TOKEN, the API makes the change under the token's scope.
  const target = apiTarget(config);
  if (target) {
    const { percent, json = false } = values;
    return rolloutThroughApi({ target, command, remote, version, percent, json, skipGate: values[SKIP] === true, environment });
  }

  const store = await openDatabase({ store: config, max: 2, role: 'cli', actor: actor() });
  try {
    await run({ db: store.pool, config, command, remote, version, values, environment });
  } finally {
    await store.close();
  }
}

type Values = ReturnType<typeof parseFlags>['values'];

/** The guard: a process of its own (npm start runs one per environment), with its own config. */
async function guard(values: Values) {
  const config = readConfig(GUARD_VARIABLES, process.env);
  if (apiTarget(config)) throw new DeployError('the guard runs beside the store (npm start runs one per environment), not through the API: unset NETNET_CONTROL_URL to run it here.');
  const environment = environmentName(values.env ?? config.environment);
  // Checked before the first pass: a deployment job with a typo fails at once, not later.
  const options = guardOptions(values);
  const store = await openDatabase({ store: config, max: 2, role: 'cli', actor: actor() });
  try {
    await guardCommand({ db: store.pool, environment, options, minFailingNetworks: config.minFailingNetworks });
  } finally {
    await store.close();
  }
}

async function run({
  db,
  config,
  command,
  remote,
  version,
  values,
  environment,
}: {
  db: Store;
  config: RolloutConfig;
  command: string;
  remote: string | undefined;
  version: string | undefined;
  values: Values;
  environment: string;
}) {
  if (command === 'status') {
    const [{ version: mapVersion, rollout: current }, releases] = await Promise.all([readRollout(db, environment), listReleases(db)]);
    if (values.json) return console.log(JSON.stringify(remoteMapFor(environment, { rollout: current, releases }, config), null, 2));
    const health = await healthReport({ db, environment, rollout: current, remotes: site.remotes, minFailingNetworks: config.minFailingNetworks });
    console.log(`environment ${environment} (${current ? `map version ${mapVersion}` : 'nothing rolled out yet'})`);
    for (const line of [...health.header, '']) console.log(line);
    for (const name of site.remotes) {
      const details = health.byRemote.get(name) ?? [];
      // A blank line after a remote's details keeps the next remote's line from reading as one of them.
      for (const line of [describe(config, current, name, releases), ...details, ...(details.length ? [''] : [])]) console.log(line);
    }
    const trail = await auditTrail(db, environment, 5);
    if (trail.length) {
      console.log('latest changes:');
      for (const entry of trail) {
        console.log(`  v${entry.map_version} ${entry.at.toISOString().slice(0, 19).replace('T', ' ')} UTC  ${entry.actor}: ${entry.action}${entry.remote ? ` ${entry.remote}` : ''}`);
      }
    }
    return;
  }
  if (command === 'prune') {
    // Releases are shared by every environment (one origin, one store): every map counts, --env or not.
    // This command's working folder: its copies of releases go with them.
    const where = { deployDir: config.deployDir };
    const plan = values.apply ? await applyPrune(db, where) : await planPrune(db, where);
    for (const line of describePlan(plan, { applied: values.apply === true })) console.log(line);
    return;
  }
  if (!isRolloutCommand(command)) throw new DeployError(`Unknown command "${command}".`);
  // The commands that name a remote check it (assertRemote) before anything else reads it.
  const target = remote ?? '';
  if (command === 'canary' && values.percent === undefined) throw new DeployError('canary needs --percent <0-100>.');
  const percent = command === 'canary' ? parsePercent(values.percent) : undefined;
  const written = await changeRollout(
    db,
    environment,
    { command, remote: target, version, percent, skipGate: values[SKIP] === true },
    { actor: actor(), warn: (line) => console.error(line), gate: config },
  );
  const next = written.rollout;
  console.log(`${environment}: ${describe(config, next, target, await listReleases(db))}`);
  console.log(`map version ${written.version}; every instance of the site serves it within a second.`);
}

runCli(main);
