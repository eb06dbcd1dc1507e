// A production remote's container leaves out the federation runtime and uses its page's. The
// remote's own standalone page has no shell, so this script (built on its own by
// webpack.shared.js) provides the runtime there, before the app.
import { provideRuntimeCore } from './runtimeCore';

provideRuntimeCore();
