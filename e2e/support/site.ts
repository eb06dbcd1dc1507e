// The composed site's addresses, from the same table `npm start` serves it by (@netnet/site),
// so a port or an app changes in one place.
import site from '@netnet/site';

// Read once: the same variables the site was started with say where it is.
const settings = site.readSite();
const runtime = site.runtimeConfig(settings);

/** The shell: where members open Netnet. */
export const siteUrl = settings.shellUrl;
/** The catalogue service, and its TMDB-compatible API under /3. */
export const catalogueUrl = runtime.catalogueUrl;
export const catalogueApi = `${catalogueUrl}/3`;
/** The Firebase Auth emulator (the site runs against it unless real Firebase keys are set). */
export const authEmulatorUrl = runtime.authEmulatorUrl ?? `http://127.0.0.1:${site.ports.authEmulator}`;
/** Published releases, served as a CDN would. */
export const deployUrl = settings.deployUrl;
/** The apps served to browsers: the shell and the remotes. */
export const webApps = site.webApps;
/** The remotes the shell composes, and where each is served from. */
export const remotes = site.remotes;
export const remoteOrigins = remotes.map((remote) => site.origin(remote, settings));

/** The origin an app is served from; an app the site does not have is a mistake in the test. */
export function originOf(app: string): string {
  if (!site.webApps.includes(app)) throw new Error(`No app "${app}" in the site table (apps: ${site.webApps.join(', ')})`);
  return site.origin(app, settings);
}

/** `url` escaped for use inside a RegExp (page.route, toHaveURL, toMatch). */
export const exactly = (url: string): string => url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
