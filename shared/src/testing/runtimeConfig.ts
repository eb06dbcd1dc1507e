import { clearCatalogueCache, setRuntimeConfig, type RuntimeConfig } from '@netnet/shared';

/** Where the fake catalogue lives: image and API URLs in tests start with it. */
export const CATALOGUE_URL = 'http://catalogue.test';

/** The /config.json the shell would have loaded, pointing at the fake catalogue. */
export const testRuntimeConfig: RuntimeConfig = {
  catalogueUrl: CATALOGUE_URL,
  firebase: { apiKey: 'test', authDomain: 'test', projectId: 'demo-netnet' },
  authEmulatorUrl: null,
};

/**
 * Loads the test runtime config and empties the catalogue cache: the client keeps answers per URL
 * for minutes, so each test starts from a cold catalogue.
 */
export function loadTestRuntimeConfig(): void {
  setRuntimeConfig(testRuntimeConfig);
  clearCatalogueCache();
}
