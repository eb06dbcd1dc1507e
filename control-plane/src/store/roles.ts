// Who connects to the store as what (docs/deploy.md, "Roles"): shell instances, the control-plane
// API and the CLI each log in as a PostgreSQL role holding only the rights its work needs
// (control-plane/migrations/003_roles_and_audit.sql); the owner runs the migrations, and tests and
// operators' scripts use it.

/** A caller of the store. */
export type Role = 'owner' | 'instance' | 'api' | 'cli';

/** The PostgreSQL role of each caller but the owner (whose login is the embedded `netnet`, or DATABASE_URL's). */
export const ROLE_NAMES = Object.freeze({
  instance: 'netnet_instance',
  api: 'netnet_api',
  cli: 'netnet_cli',
} as const satisfies Record<Exclude<Role, 'owner'>, string>);

/** With DATABASE_URL: the variable holding a role's own connection string (unset: DATABASE_URL's login is used). */
export const ROLE_URLS = Object.freeze({
  instance: 'DATABASE_URL_INSTANCE',
  api: 'DATABASE_URL_API',
  cli: 'DATABASE_URL_CLI',
} as const satisfies Record<Exclude<Role, 'owner'>, string>);

/**
 * A startup option setting the session's `netnet.actor` (who the audit trail names when a change
 * says nothing more precise), escaped as PostgreSQL reads `options`.
 */
export const actorOption = (actor: string) => `-c netnet.actor=${actor.replace(/[\\\s]/g, (c) => `\\${c}`)}`;
