import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { provideRuntimeCore } from '@netnet/shared/federation-runtime';

// The shell's federation runtime is the page's one: remotes' containers are built without their
// own (≈ 15 KB gzip each) and read it from a global, which must exist before any remote loads.
export default function provideRuntimePlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'netnet-provide-runtime',
    beforeInit(args) {
      provideRuntimeCore();
      return args;
    },
  };
}
