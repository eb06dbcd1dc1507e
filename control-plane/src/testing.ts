// What other workspaces' tests and benchmarks use of the control plane to set a scene: a throwaway
// database, QA tokens made as the CLI makes them, the rule of which deploy paths are release files.
export { testDatabase } from './store/testDatabase.ts';
export { newQaTokenId, signQaToken } from './rollouts/qaToken.ts';
export { isReleaseFile } from './releases/originFolder.ts';
