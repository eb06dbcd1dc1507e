// Rollouts: the release owner's moves on an environment's map and their one way into the store,
// the map an instance serves (/remotes.json), QA tokens and dev pins. This file is the folder's
// package entry (`@netnet/control-plane/rollouts`) for tools and tests outside the control plane:
// a benchmark sets a stable and a canary, a test signs a QA token and reads the dev pins it allows.
export { setCanary, setStable } from './commands.ts';
export { devPinSources, devPinsFor } from './devPin.ts';
export { newQaTokenId, signQaToken } from './qaToken.ts';
