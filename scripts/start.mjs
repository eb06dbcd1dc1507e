// `npm start`: builds what is out of date, then runs the whole site on localhost —
// the catalogue service, the Firebase Auth emulator, each remote on its own origin and the
// shell on :8080 — and prints one line when it is ready. Ctrl-C stops everything it started.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildIfNeeded, root } from './build.mjs';
import { serveApp } from './serve.mjs';

const site = createRequire(import.meta.url)('./site.cjs');
const children = [];
const servers = [];

function startProcess(name, command, args, env = {}) {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, NO_UPDATE_NOTIFIER: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = (chunk) =>
    chunk.toString().split('\n').filter(Boolean).forEach((line) => console.log(`[${name}] ${line}`));
  child.stdout.on('data', prefix);
  child.stderr.on('data', prefix);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[${name}] stopped unexpectedly (${signal ?? `exit ${code}`})`);
      stop(1);
    }
  });
  children.push(child);
  return child;
}

async function waitFor(url, what, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what} did not start within ${timeoutMs / 1000} s (${url})`);
}

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const server of servers) server.close();
  for (const child of children) child.kill('SIGINT');
  setTimeout(() => process.exit(code), 1500).unref();
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

async function main() {
  const started = Date.now();
  await buildIfNeeded();

  const { ports } = site;
  startProcess('catalogue', process.execPath, [join(root, 'catalogue/dist/main.js')], {
    PORT: String(ports.catalogue),
  });
  const usesEmulator = site.runtimeConfig().authEmulatorUrl !== null;
  if (usesEmulator) {
    startProcess('auth', join(root, 'node_modules/.bin/firebase'), [
      'emulators:start', '--only', 'auth', '--project', 'demo-netnet',
    ]);
  }

  for (const app of site.remotes) {
    servers.push(await serveApp({ dir: join(root, app, 'dist'), port: ports[app], cors: true }));
  }
  await waitFor(`http://localhost:${ports.catalogue}/3/genre/movie/list`, 'The catalogue service');
  if (usesEmulator) await waitFor(`http://127.0.0.1:${ports.authEmulator}/`, 'The Firebase Auth emulator', 90_000);

  // The shell opens last, so "ready" means the whole site answers.
  servers.push(
    await serveApp({
      dir: join(root, 'shell/dist'),
      port: ports.shell,
      spa: true,
      documents: { '/config.json': () => site.runtimeConfig(), '/remotes.json': () => site.remoteMap() },
    }),
  );
  console.log(`Netnet is ready on http://localhost:${ports.shell} (started in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  stop(1);
});
