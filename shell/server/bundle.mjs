// Builds the shell's server program (./main.ts and everything it imports of our workspaces) into
// one CommonJS file, dist/server/main.cjs, that Node runs as it is: no TypeScript loader in
// production (how, and why paths hold: server-kit/bundle.mjs).
import { fileURLToPath } from 'node:url';
import { bundleProgram } from '@netnet/server-kit/bundle';

await bundleProgram({
  entry: fileURLToPath(new URL('./main.ts', import.meta.url)),
  outfile: fileURLToPath(new URL('../dist/server/main.cjs', import.meta.url)),
  format: 'cjs',
});
