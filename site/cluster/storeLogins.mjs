// How the cluster's processes reach the one store when it is the embedded PostgreSQL: each process
// has a working folder of its own as its NETNET_DEPLOY_DIR (./workingFolders.mjs), so none would
// find the embedded server's socket in its deploy folder. Each role is handed its own login to that
// socket instead, as production hands each its DATABASE_URL_<ROLE> (docs/deploy.md, "Secrets").
import { ROLE_NAMES, ROLE_URLS } from '@netnet/control-plane/store';

/**
 * The variables that give `role` ('instance' or 'api') its login: none when the operator gave
 * DATABASE_URL (every process inherits it, and the roles' own logins beside it).
 * @param {{ host: string, port: number, database: string } | null} embedded the server openSiteStore() found or started
 * @param {'instance' | 'api'} role
 * @returns {Record<string, string>}
 */
export function storeLogin(embedded, role) {
  if (!embedded) return {};
  // A Unix socket's folder goes in the `host` parameter; peer authentication needs no password.
  const socket = new URLSearchParams({ host: embedded.host, port: String(embedded.port) });
  return { [ROLE_URLS[role]]: `postgresql://${ROLE_NAMES[role]}@/${embedded.database}?${socket}` };
}
