// Release health for the benchmarks (`@netnet/control-plane/health`): the collector and its store,
// the figures as the guard reads them, and tickets as a page carries them.
export { createCollector } from './collector.ts';
export { createHealthStore, readFigures } from './counts.ts';
export { createFigures } from './figures.ts';
export { issueTicket, ticketSecrets } from './ticket.ts';
