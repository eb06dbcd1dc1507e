// What other workspaces' tests use of the control plane to set a scene: QA tokens made as the CLI
// makes them, the rule of which deploy paths are release files.
export { newQaTokenId, signQaToken } from './deploy/qaToken.ts';
export { isReleaseFile } from './deploy/tree.ts';
