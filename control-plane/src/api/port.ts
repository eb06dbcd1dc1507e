// Where the control-plane API listens: NETNET_CONTROL_PORT, else 8070 (control-plane/bin/api.ts,
// and `npm start` / `npm run start:cluster`, which start it). Not in the site table: every app's
// build reads that table, and the API's port is none of theirs.
export const CONTROL_PORT = 8070;

export function controlPort(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.NETNET_CONTROL_PORT;
  if (raw === undefined || raw === '') return CONTROL_PORT;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) throw new Error(`NETNET_CONTROL_PORT must be a port number, not "${raw}"`);
  return port;
}
