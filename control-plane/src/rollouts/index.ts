// Rollout moves and pins for tools and tests outside the control plane
// (`@netnet/control-plane/rollouts`): a benchmark sets a stable and a canary, a test signs a QA
// token and reads the dev pins it allows.
export { setCanary, setStable } from './commands.ts';
export { devPinSources, devPinsFor } from './devPin.ts';
export { newQaTokenId, signQaToken } from './qaToken.ts';
