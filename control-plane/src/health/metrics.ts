// GET /metrics on each instance of the shell's server: the release-health counters in
// Prometheus' text format (prom-client), for an operator's Prometheus and Grafana. Counts are this
// instance's since it started (Prometheus sums the instances); the guard's exact per-minute
// figures are in the store. Scraped by the operator on the instance's own port, not through the
// front door (docs/store.md): answered only to an internal address or the
// operator's token (@netnet/server-kit's operatorAccess.ts), 403 to anyone else.
import type { IncomingMessage, ServerResponse } from 'node:http';
import client from 'prom-client';
import type { Counters } from './otlp.ts';
import type { MapState } from '../store/liveMap.ts';
import { operatorAccess, type OperatorSettings } from '@netnet/server-kit';

export const METRICS_PATH = '/metrics';

export function createMetrics({
  collector,
  storeState,
  renderProcesses,
  operator,
}: {
  collector: { counters(): Counters };
  storeState?: (() => Pick<MapState, 'version' | 'stale' | 'ageMs'>) | undefined;
  /** The instance's render processes that take renders, by release (docs/sandbox.md). */
  renderProcesses?: (() => { remote: string; version: string; ready: number }[]) | undefined;
  /** Who may read it: the server's OPERATOR_VARIABLES (NETNET_INTERNAL_ADDRESSES, NETNET_OPERATOR_TOKEN). */
  operator: OperatorSettings;
}) {
  const allowed = operatorAccess(operator);
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'netnet_' });
  new client.Counter({
    name: 'netnet_health_reports_total',
    help: 'Release-health sessions accepted by this instance, by remote, release, channel and outcome.',
    labelNames: ['remote', 'release', 'channel', 'outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const { count, ...labels } of collector.counters().reports) this.inc(labels, count);
    },
  });
  new client.Counter({
    name: 'netnet_health_refused_total',
    help: 'Release-health batches refused by this instance, by HTTP status.',
    labelNames: ['status'],
    registers: [registry],
    collect() {
      this.reset();
      for (const { status, count } of collector.counters().refused) this.inc({ status: String(status) }, count);
    },
  });
  if (storeState) {
    new client.Gauge({
      name: 'netnet_rollout_map_version',
      help: 'Version of the rollout map this instance serves.',
      registers: [registry],
      collect() {
        this.set(storeState().version);
      },
    });
    new client.Gauge({
      name: 'netnet_store_stale',
      help: '1 while this instance serves its last good map because the store does not answer.',
      registers: [registry],
      collect() {
        this.set(storeState().stale ? 1 : 0);
      },
    });
  }
  if (renderProcesses) {
    new client.Gauge({
      name: 'netnet_render_processes',
      help: "Render processes of this instance that take renders, by remote and release: 0 while a release's are starting or waiting after failures.",
      labelNames: ['remote', 'release'],
      registers: [registry],
      collect() {
        this.reset();
        for (const { remote, version, ready } of renderProcesses()) this.set({ remote, release: version }, ready);
      },
    });
  }
  return {
    matches: (req: Pick<IncomingMessage, 'url'>) => new URL(req.url ?? '/', 'http://metrics').pathname === METRICS_PATH,
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { Allow: 'GET, HEAD' });
        res.end();
        return;
      }
      if (!allowed(req)) {
        res.writeHead(403, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' });
        res.end('for operators: an internal address or the operator token');
        return;
      }
      const body = await registry.metrics();
      res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    },
  };
}
