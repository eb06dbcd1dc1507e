// Release health: the collector of browsers' reports, their tickets, the counts in the store, the
// figures the guard reads, metrics and OTLP export. This file is the folder's package entry
// (`@netnet/control-plane/health`) for the benchmarks: the collector and its store, the figures
// as the guard reads them, and tickets as a page carries them.
export { createCollector } from './collector.ts';
export { createHealthStore, readFigures } from './counts.ts';
export { createFigures } from './figures.ts';
export { issueTicket, ticketSecrets } from './ticket.ts';
