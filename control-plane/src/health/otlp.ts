// The collector's figures for teams that run OpenTelemetry: with the standard endpoint variable
// set, a POST of OTLP/HTTP JSON metrics every export interval — plain fetch, no SDK.
//   OTEL_EXPORTER_OTLP_METRICS_ENDPOINT  the full URL, used as is
//   OTEL_EXPORTER_OTLP_ENDPOINT          the base URL; /v1/metrics is added
//   OTEL_EXPORTER_OTLP_(METRICS_)HEADERS k=v,k2=v2 (values URL-encoded), e.g. an API key
//   OTEL_METRIC_EXPORT_INTERVAL          ms between exports (60000)
//   OTEL_EXPORTER_OTLP_TIMEOUT           ms before an export is given up (10000)
//   OTEL_SERVICE_NAME                    the resource's service.name (netnet)
// Counters are cumulative since the collector started (a backend computes rates from them); the
// LCP p75 is a gauge over the figures' window.
import { variable, wholeNumber } from '@netnet/server-kit';
import { z } from 'zod';
import { messageOf } from '../errors.ts';
import { countOf, quantile } from './histogram.ts';
import type { Figures } from './figures.ts';

/** The collector's counts since it started (createCollector().counters()). */
export interface Counters {
  startedAt: number;
  reports: { remote: string; release: string; channel: string; outcome: string; count: number }[];
  refused: { status: number; count: number }[];
}

/** What the export reads: the collector's counters and figures. */
export interface MetricsSource {
  counters(): Counters;
  figures(): Pick<Figures, 'list'>;
}

type Fetch = typeof globalThis.fetch;

const endpoint = z.url({ protocol: /^https?$/, error: 'not an http(s) URL' }).optional();

/** OpenTelemetry's own variables, as its SDKs read them (the header comment), read by the process that collects. */
export const OTLP_VARIABLES = {
  endpoint: variable('OTEL_EXPORTER_OTLP_ENDPOINT', endpoint, "set: the release-health figures are also exported as OTLP/HTTP JSON metrics to this base URL's /v1/metrics"),
  metricsEndpoint: variable('OTEL_EXPORTER_OTLP_METRICS_ENDPOINT', endpoint, 'the full URL the metrics go to, instead of the base URL'),
  headers: variable('OTEL_EXPORTER_OTLP_HEADERS', z.string().optional(), 'headers of every export, k=v,k2=v2 (values URL-encoded), e.g. an API key'),
  metricsHeaders: variable('OTEL_EXPORTER_OTLP_METRICS_HEADERS', z.string().optional(), 'the metrics exports\' headers, instead of OTEL_EXPORTER_OTLP_HEADERS'),
  timeoutMs: variable('OTEL_EXPORTER_OTLP_TIMEOUT', wholeNumber(1).default(10_000), 'milliseconds before an export is given up'),
  intervalMs: variable('OTEL_METRIC_EXPORT_INTERVAL', wholeNumber(1).default(60_000), 'milliseconds between exports'),
  serviceName: variable('OTEL_SERVICE_NAME', z.string().default('netnet'), "the exported resource's service.name"),
};

/** What the export reads (OTLP_VARIABLES). */
export interface OtlpSettings {
  endpoint?: string | undefined;
  metricsEndpoint?: string | undefined;
  headers?: string | undefined;
  metricsHeaders?: string | undefined;
  timeoutMs?: number;
  intervalMs?: number;
  serviceName?: string;
}

/** Where metrics go, or null when no endpoint is set. */
export function otlpEndpoint(settings: OtlpSettings): string | null {
  if (settings.metricsEndpoint) return settings.metricsEndpoint;
  if (settings.endpoint) return `${settings.endpoint.replace(/\/+$/, '')}/v1/metrics`;
  return null;
}

export function otlpHeaders(settings: OtlpSettings): Record<string, string> {
  const text = settings.metricsHeaders ?? settings.headers ?? '';
  const headers: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    try {
      headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // A pair that does not decode is left out rather than sent garbled.
    }
  }
  return headers;
}

const nanos = (ms: number) => (BigInt(Math.round(ms)) * 1_000_000n).toString();
const attributes = (values: Record<string, unknown>) => Object.entries(values).map(([key, value]) => ({ key, value: { stringValue: String(value) } }));

/**
 * The OTLP JSON body (an ExportMetricsServiceRequest) for the collector's counters() and
 * figures() at `now` (ms).
 */
export function metricsPayload({
  counters,
  figures,
  now,
  serviceName = 'netnet',
}: {
  counters: Counters;
  figures: Pick<Figures, 'list'>;
  now: number;
  serviceName?: string;
}) {
  const start = nanos(counters.startedAt);
  const time = nanos(now);
  const sum = (name: string, description: string, unit: string, points: { attrs: Record<string, unknown>; count: number }[]) => ({
    name,
    description,
    unit,
    sum: {
      aggregationTemporality: 2, // cumulative
      isMonotonic: true,
      dataPoints: points.map(({ attrs, count }) => ({ attributes: attributes(attrs), startTimeUnixNano: start, timeUnixNano: time, asInt: String(count) })),
    },
  });
  const lcp = [];
  for (const series of figures.list()) {
    const samples = countOf(series.totals.lcp);
    if (samples === 0) continue;
    lcp.push({
      attributes: attributes({ 'netnet.remote': series.remote, 'netnet.release': series.release, 'netnet.channel': series.channel }),
      timeUnixNano: time,
      asDouble: quantile(series.totals.lcp, 0.75, samples),
    });
  }
  return {
    resourceMetrics: [
      {
        resource: { attributes: attributes({ 'service.name': serviceName }) },
        scopeMetrics: [
          {
            scope: { name: 'netnet.health', version: '1' },
            metrics: [
              sum(
                'netnet.health.reports',
                'Page loads reported per remote, release, channel and outcome',
                '{report}',
                counters.reports.map(({ count, ...attrs }) => ({
                  count,
                  attrs: { 'netnet.remote': attrs.remote, 'netnet.release': attrs.release, 'netnet.channel': attrs.channel, 'netnet.outcome': attrs.outcome },
                })),
              ),
              sum(
                'netnet.health.refused_batches',
                'Report batches the collector refused, per HTTP status',
                '{batch}',
                counters.refused.map(({ status, count }) => ({ count, attrs: { 'http.response.status_code': status } })),
              ),
              { name: 'netnet.health.lcp.p75', description: "LCP p75 over the guard's window", unit: 'ms', gauge: { dataPoints: lcp } },
            ],
          },
        ],
      },
    ],
  };
}

/** One export; resolves to the response status, throws on a network error or timeout. */
async function exportOnce({
  endpoint,
  headers = {},
  payload,
  fetch = globalThis.fetch,
  timeoutMs = 10_000,
}: {
  endpoint: string;
  headers?: Record<string, string>;
  payload: unknown;
  fetch?: Fetch;
  timeoutMs?: number;
}): Promise<number> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(payload),
    signal: AbortSignal.timeout(timeoutMs),
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`OTLP export to ${endpoint} answered ${response.status}`);
  return response.status;
}

/**
 * Exports the collector's figures every OTEL_METRIC_EXPORT_INTERVAL when an endpoint is set;
 * returns stop(), or null with no endpoint. A failed export is reported once until one succeeds.
 */
export function startOtlpExport({
  settings,
  fetch = globalThis.fetch,
  now = Date.now,
  collector,
  onError = (error) => console.warn(`[health] ${messageOf(error)}`),
}: {
  settings: OtlpSettings;
  fetch?: Fetch;
  now?: () => number;
  collector: MetricsSource;
  onError?: (error: unknown) => void;
}): (() => void) | null {
  const endpoint = otlpEndpoint(settings);
  if (!endpoint) return null;
  const headers = otlpHeaders(settings);
  const { timeoutMs = 10_000, intervalMs = 60_000, serviceName = 'netnet' } = settings;
  let failing = false;
  const timer = setInterval(async () => {
    try {
      const payload = metricsPayload({ counters: collector.counters(), figures: collector.figures(), now: now(), serviceName });
      await exportOnce({ endpoint, headers, payload, fetch, timeoutMs });
      failing = false;
    } catch (error) {
      if (!failing) onError(error);
      failing = true;
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
