// How this instance's render processes get a release's server build: from the store, through this
// instance's own release files (./releaseFiles.ts), not over HTTP from the releases' origin
// (NETNET_DEPLOY_URL). That origin is the instances themselves behind the front door, so an
// instance warming up before it listens — every instance, when a whole cluster starts — would ask
// instances that are not answering yet. The render pool still checks the code against the hash its
// release recorded (docs/sandbox.md); any other address (a remote's own build) is fetched.
import { realpath, readFile } from 'node:fs/promises';
import type { ReleaseFiles } from './releaseFiles.ts';
import { findFile, safePath } from './staticFiles.ts';

/** A fetch that answers the addresses under `deployUrl` from `releases` as its route would (without its headers), and fetches any other. */
export function releaseFilesFetch(deployUrl: string, releases: Pick<ReleaseFiles, 'dir' | 'has'>): typeof fetch {
  const origin = `${deployUrl}/`;
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(origin)) return fetch(input, init);
    const path = safePath(`/${url.slice(origin.length)}`);
    const [, remote, version] = /^\/([^/]+)\/([^/]+)\/[^/]/.exec(path ?? '') ?? [];
    const notFound = () => new Response('Not found', { status: 404 });
    if (!path || remote === undefined || version === undefined || !(await releases.has(remote, version))) return notFound();
    const file = await findFile(await realpath(releases.dir), path);
    return file ? new Response(await readFile(file.real)) : notFound();
  };
}
