// One shell-server instance, as `npm run start:cluster` runs two behind nginx and as a container
// would run one (docs/deploy.md): the same serveShell() as `npm start`, on PORT, with probes at
// /healthz and /livez, drained on SIGTERM (scripts/cluster/lifecycle.mjs).
//
//   PORT=8081 NETNET_EARLY_HINTS=link node --import tsx scripts/cluster/instance.mjs
//
// Environment: PORT (default 8081), NETNET_EARLY_HINTS=link (hints as Link headers on the page,
// for a front door that cannot relay a 103), and everything `npm start` reads (docs/environment.md).
// It collects release-health reports; the guard that judges them is a process of its own.
import { serveShell } from '../shellServer.mjs';
import { runInstance } from './lifecycle.mjs';

const port = Number(process.env.PORT ?? 8081);

await runInstance({
  name: process.env.NETNET_INSTANCE_NAME ?? `shell:${port}`,
  hintsAsLinkHeaders: process.env.NETNET_EARLY_HINTS === 'link',
  start: () => serveShell({ port }),
});
