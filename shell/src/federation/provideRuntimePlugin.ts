import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { provideBundlerRuntime, provideRuntimeCore } from '@netnet/shared/federation-runtime';

/** The shell's own webpack require, which carries its federation runtime (webpack's free variable). */
declare const __webpack_require__: { federation?: Parameters<typeof provideBundlerRuntime>[0] } | undefined;

// The shell's federation runtime is the page's one: remotes' containers are built without their
// own (≈ 15 KB gzip each) nor its webpack side (≈ 5 KB brotli each) and read them from globals,
// which must exist before any remote loads.
export default function provideRuntimePlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'netnet-provide-runtime',
    beforeInit(args) {
      provideRuntimeCore();
      provideBundlerRuntime(typeof __webpack_require__ === 'undefined' ? undefined : __webpack_require__.federation);
      return args;
    },
  };
}
