// What a shell instance uses of the control plane, and all it may: reading the live map and the
// QA and dev pins it allows, collecting browsers' release-health reports, issuing their tickets.
// The shell's server imports this entry (`@netnet/control-plane/instance`) and nothing deeper; its
// config composes the variables these read (defined beside them).
export { devPinSources, devPinsFor, isDevPinParam } from './rollouts/devPin.ts';
export { QA_SECRET_VARIABLES, qaTokenFromCookie, qaTokenRedirect } from './rollouts/qaToken.ts';
export { remoteMapFor } from './rollouts/remoteMap.ts';
export { quote, throttledLog } from './safeLog.ts';
export { createCollector } from './health/collector.ts';
export { createMetrics } from './health/metrics.ts';
export { OTLP_VARIABLES } from './health/otlp.ts';
export { deviceTag, ticketSecrets } from './health/ticket.ts';
export { createTicketService } from './health/ticketService.ts';
export { openDatabase, ROLE_DATABASE_VARIABLES, STORE_VARIABLES, type Queryable } from './store/database.ts';
export { materializeRelease } from './store/releaseFiles.ts';
export { createHealthStore } from './health/counts.ts';
export { watchMap } from './store/liveMap.ts';
export { ENVIRONMENT_VARIABLES } from './store/rollouts.ts';
