// Runtime configuration (/config.json), read once at boot by the shell or a standalone remote.
// Nothing here is baked into a bundle: one build runs against any catalogue or Firebase project.

export interface FirebaseWebConfig {
  apiKey: string;
  authDomain: string;
  projectId: string;
  appId?: string;
}

export interface RuntimeConfig {
  catalogueUrl: string;
  firebase: FirebaseWebConfig;
  /** Set offline and in tests: the Firebase Auth emulator's URL. */
  authEmulatorUrl: string | null;
}

let current: RuntimeConfig | null = null;

export function isRuntimeConfig(value: unknown): value is RuntimeConfig {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<RuntimeConfig>;
  return (
    typeof v.catalogueUrl === 'string' &&
    !!v.firebase &&
    typeof v.firebase.apiKey === 'string' &&
    typeof v.firebase.projectId === 'string' &&
    (v.authEmulatorUrl === null || typeof v.authEmulatorUrl === 'string')
  );
}

/** Reads /config.json, or the response to a request for it already under way. */
export async function loadRuntimeConfig(source: string | Promise<Response> = '/config.json'): Promise<RuntimeConfig> {
  const response = await (typeof source === 'string' ? fetch(source, { cache: 'no-cache' }) : source);
  if (!response.ok) throw new Error(`The site configuration could not be loaded (HTTP ${response.status}).`);
  const body: unknown = await response.json().catch(() => null);
  if (!isRuntimeConfig(body)) throw new Error('The site configuration is malformed.');
  current = body;
  return body;
}

export function setRuntimeConfig(config: RuntimeConfig): void {
  current = config;
}

export function getRuntimeConfig(): RuntimeConfig {
  if (!current) throw new Error('Runtime configuration was read before it was loaded.');
  return current;
}
