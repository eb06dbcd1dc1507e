import { useSyncExternalStore } from 'react';

const noChanges = () => () => {};

/**
 * False in the server's page and while the browser takes it over, true from then on (and at once
 * in a page the browser renders itself): what the first paint does not need waits until the page
 * answers the member (docs/architecture.md#server-rendering).
 */
export const useTakenOver = () => useSyncExternalStore(noChanges, () => true, () => false);
