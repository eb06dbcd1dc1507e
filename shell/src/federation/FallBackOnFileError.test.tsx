import { render, screen } from '@testing-library/react';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { CanaryFallback } from './rolloutPlugin';
import { registerRollout } from './registerRollout';
import { RemotePage } from './RemotePage';

jest.mock('@module-federation/enhanced/runtime', () => ({ loadRemote: jest.fn(), registerPlugins: jest.fn(), registerRemotes: jest.fn() }));
const mockedLoadRemote = loadRemote as jest.MockedFunction<typeof loadRemote>;
const mockedRegisterRemotes = registerRemotes as jest.MockedFunction<typeof registerRemotes>;

const STABLE = { version: '1.0.0', entry: 'https://cdn.example/remote-title/1.0.0/mf-manifest.json' };
const CANARY = { version: '1.1.0', entry: 'https://cdn.example/remote-title/1.1.0/mf-manifest.json' };

/** A page whose lazy part cannot be fetched: what webpack throws for a missing chunk or style sheet. */
function pageMissingAFile(error: Error) {
  return function Page(): never {
    throw error;
  };
}
const chunkLoadError = () => Object.assign(new Error('Loading chunk 127 failed.\n(missing: https://cdn.example/remote-title/1.1.0/127.js)'), { name: 'ChunkLoadError' });
const cssLoadError = () => Object.assign(new Error('Loading CSS chunk 354 failed.'), { code: 'CSS_CHUNK_LOAD_FAILED' });

let fallbacks: CanaryFallback[];
const onFallback = (event: Event) => fallbacks.push((event as CustomEvent<CanaryFallback>).detail);

beforeEach(() => {
  jest.spyOn(console, 'warn').mockImplementation(() => {});
  jest.spyOn(console, 'error').mockImplementation(() => {});
  mockedLoadRemote.mockReset();
  mockedRegisterRemotes.mockReset();
  fallbacks = [];
  window.addEventListener('netnet:canary-fallback', onFallback);
});
afterEach(() => window.removeEventListener('netnet:canary-fallback', onFallback));

function rollOut(canaryPercent: number) {
  registerRollout({ remotes: { 'remote-title': { stable: STABLE, ...(canaryPercent > 0 && { canary: { ...CANARY, percent: canaryPercent } }), pinnable: [] } } }, { search: '' });
}

it.each([
  ['a chunk', chunkLoadError],
  ['a style sheet', cssLoadError],
])('a canary page whose %s fails to load after its entry is replaced by stable in the same page, with no error shown', async (_, error) => {
  rollOut(100);
  mockedLoadRemote
    .mockResolvedValueOnce({ default: pageMissingAFile(error()) })
    .mockResolvedValueOnce({ default: () => <h1>Stable title page</h1> });
  render(<RemotePage remote="remote-title" module={`LateFile${error.name}`} />);

  expect(await screen.findByRole('heading', { name: 'Stable title page' })).toBeInTheDocument();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  expect(mockedRegisterRemotes).toHaveBeenCalledWith([{ name: 'remote_title', entry: STABLE.entry }], { force: true });
  expect(fallbacks).toEqual([expect.objectContaining({ remote: 'remote-title', stable: '1.0.0', failed: { version: '1.1.0', channel: 'canary' } })]);
});

it('a stable page whose file fails shows the area’s error: there is nothing to fall back to', async () => {
  rollOut(0);
  mockedLoadRemote.mockResolvedValueOnce({ default: pageMissingAFile(chunkLoadError()) });
  render(<RemotePage remote="remote-title" module="StableLateFile" />);
  expect(await screen.findByRole('alert')).toHaveTextContent('This part of Netnet is unavailable right now');
  expect(mockedRegisterRemotes).not.toHaveBeenCalled();
  expect(fallbacks).toEqual([]);
});

it('a canary page that throws for another reason is not replaced: the area shows its error', async () => {
  rollOut(100);
  mockedLoadRemote.mockResolvedValueOnce({ default: pageMissingAFile(new TypeError('cannot read x of undefined')) });
  render(<RemotePage remote="remote-title" module="CanaryThrows" />);
  expect(await screen.findByRole('alert')).toHaveTextContent('unavailable');
  expect(mockedRegisterRemotes).not.toHaveBeenCalled();
});
