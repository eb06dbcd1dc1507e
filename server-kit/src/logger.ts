// One logger for every server: pino's JSON lines (what Loki, Elastic or CloudWatch read as they
// are), one `service` field per process, and Fastify's request id on every line a request logs.
// Requests themselves are not logged one by one: the front door's access log does that.
import { randomUUID } from 'node:crypto';
import { LogController, type FastifyBaseLogger } from 'fastify';
import pino, { type Logger } from 'pino';
import type { LogLevel } from './variables.ts';

export type { Logger };

/**
 * The process's logger, at its config's NETNET_LOG_LEVEL (./variables.ts). Its lines go to
 * standard output, or to `destination` (a test that reads them).
 */
export function createLogger(service: string, level: LogLevel = 'info', destination?: pino.DestinationStream): Logger {
  const options = { base: { service }, level };
  return destination ? pino(options, destination) : pino(options);
}

/** Fastify's options for a logger: a request id of our own making (a client's header is not believed), no line per request. */
export function loggerOptions(logger: Logger) {
  // Typed as Fastify's own logger, so the app is a plain FastifyInstance (what limitConnections takes).
  const loggerInstance: FastifyBaseLogger = logger;
  return { loggerInstance, genReqId: () => randomUUID(), requestIdHeader: false as const, logController: new LogController({ disableRequestLogging: true }) };
}
