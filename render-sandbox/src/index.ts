// The render sandbox (docs/sandbox.md): where a release's server code runs, for members' renders
// in the shell's server and for the publish check in the control-plane API, started the same way.
export { AreaRenderError, type AreaRequest, type RenderPool, type RenderResult } from './pool.ts';
export { areaUserName, sandboxSupport, type SandboxSupport } from './launcher.ts';
export { matchesHash } from './releaseCode.ts';
export { samplePages, type SamplePage } from './samplePages.ts';
export { createSandboxedPool, RENDER_HEAP_MB } from './sandboxedPool.ts';
export { verifyServerBuild, type VerifyOptions } from './verify.ts';
