// `npm run rollout` through the control-plane API (NETNET_CONTROL_URL and NETNET_TOKEN set): the
// same commands, the change made by the API under the token's name and scope (./client.ts).
import { parsePercent } from '../rollouts/commands.ts';
import { isRolloutCommand } from '../rollouts/change.ts';
import { DeployError } from '../errors.ts';
import type { RemotePlan } from '../store/rollouts.ts';
import { callApi, type ApiTarget } from './client.ts';

interface Status {
  environment: string;
  mapVersion: number;
  health: string[];
  remotes: Record<string, { plan: RemotePlan | null; served: unknown; published: string[]; health: string[] }>;
  changes: { mapVersion: number; at: string; actor: string; action: string; remote: string | null; reason?: string | null }[];
}

interface Change {
  environment: string;
  mapVersion: number;
  remote: string;
  plan: RemotePlan | null;
  warnings: string[];
}

function describe(remote: string, plan: RemotePlan | null, published?: string[]) {
  const parts = plan ? [`stable ${plan.stable}`, plan.canary && `canary ${plan.canary.version} at ${plan.canary.percent}%`] : ['its own build'];
  if (plan?.history?.length) parts.push(`history ${plan.history.join(', ')}`);
  if (published) parts.push(published.length ? `published ${published.join(', ')}` : 'nothing published');
  return `${remote.padEnd(14)} ${parts.filter(Boolean).join(' · ')}`;
}

export async function rolloutThroughApi({
  target,
  command,
  remote,
  version,
  percent,
  json,
  skipGate,
  environment,
}: {
  target: ApiTarget;
  command: string;
  remote: string | undefined;
  version: string | undefined;
  percent: string | undefined;
  json: boolean;
  skipGate: boolean;
  environment: string;
}): Promise<void> {
  const at = `/v1/environments/${encodeURIComponent(environment)}`;
  if (command === 'status') {
    const { body } = await callApi<Status>(target, 'GET', `${at}/status`);
    if (json) {
      console.log(JSON.stringify({ environment, remotes: Object.fromEntries(Object.entries(body.remotes).map(([name, one]) => [name, one.served])) }, null, 2));
      return;
    }
    console.log(`environment ${environment} (${body.mapVersion ? `map version ${body.mapVersion}` : 'nothing rolled out yet'}; through ${target.url})`);
    for (const line of [...body.health, '']) console.log(line);
    for (const [name, one] of Object.entries(body.remotes)) {
      for (const line of [describe(name, one.plan, one.published), ...one.health, ...(one.health.length ? [''] : [])]) console.log(line);
    }
    if (body.changes.length) {
      console.log('latest changes:');
      for (const entry of body.changes.slice(0, 5)) {
        console.log(`  v${entry.mapVersion} ${entry.at.slice(0, 19).replace('T', ' ')} UTC  ${entry.actor}: ${entry.action}${entry.remote ? ` ${entry.remote}` : ''}${entry.reason ? ` (${entry.reason})` : ''}`);
      }
    }
    return;
  }
  if (!isRolloutCommand(command)) throw new DeployError(`Unknown command "${command}".`);
  if (!remote) throw new DeployError(`${command} needs a remote.`);
  const path = `${at}/remotes/${encodeURIComponent(remote)}/${command}`;
  const gate = skipGate ? { skipCompatibilityGate: true } : {};
  let answer: Change;
  if (command === 'stable') answer = (await callApi<Change>(target, 'PUT', path, { json: { version: version ?? '', ...gate } })).body;
  else if (command === 'canary') {
    if (percent === undefined) throw new DeployError('canary needs --percent <0-100>.');
    answer = (await callApi<Change>(target, 'PUT', path, { json: { version: version ?? '', percent: parsePercent(percent), ...gate } })).body;
  } else if (command === 'promote') answer = (await callApi<Change>(target, 'POST', path, { json: gate })).body;
  else answer = (await callApi<Change>(target, 'POST', path)).body;
  for (const line of answer.warnings) console.error(line);
  console.log(`${environment}: ${describe(remote, answer.plan)}`);
  console.log(`map version ${answer.mapVersion}; every instance of the site serves it within a second.`);
}
