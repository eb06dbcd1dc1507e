// A production remote's container leaves out the federation runtime (and its webpack side) and
// uses its page's. The remote's own standalone page has no shell, so this script (built on its own
// by webpack.shared.js) provides both there, before the app.
import federation from '@module-federation/webpack-bundler-runtime';
import { provideBundlerRuntime, provideRuntimeCore } from './runtimeCore';

provideRuntimeCore();
provideBundlerRuntime(federation);
