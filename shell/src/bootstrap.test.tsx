import { createRoot, hydrateRoot } from 'react-dom/client';
import { boot } from './boot/boot';
import { SERVER_STATE_ID, serializeState, type ServerState } from './boot/serverState';

// How the page starts: hydrating a server render, booting from the state of a page a busy server
// left to the browser, or asking for everything (docs/architecture.md#server-rendering). The
// boot and React's roots are stood in for: what is checked is which of them the page chooses.

jest.mock('./boot/boot', () => ({ boot: jest.fn(() => Promise.resolve()) }));
jest.mock('react-dom/client', () => ({
  createRoot: jest.fn(() => ({ render: jest.fn() })),
  hydrateRoot: jest.fn(),
}));
jest.mock('./App', () => ({ App: () => null }));
jest.mock('@netnet/shared/styles', () => ({}));

const STATE: ServerState = {
  config: { catalogueUrl: 'http://catalogue.test', firebase: { apiKey: 'k', authDomain: 'a', projectId: 'p' }, authEmulatorUrl: null },
  map: { remotes: {} },
  chosen: {},
  catalogue: {},
  member: null,
};

function page({ rendered, state }: { rendered: boolean; state: boolean }) {
  const root = document.createElement('div');
  root.id = 'root';
  if (rendered) root.append(Object.assign(document.createElement('main'), { textContent: 'rendered' }));
  document.body.replaceChildren(root);
  if (state) {
    const script = Object.assign(document.createElement('script'), { type: 'application/json', id: SERVER_STATE_ID, textContent: serializeState(STATE) });
    document.body.append(script);
  }
}

async function start() {
  await jest.isolateModulesAsync(async () => {
    await import('./bootstrap');
  });
  await Promise.resolve();
}

beforeEach(() => {
  jest.clearAllMocks();
  localStorage.clear();
  sessionStorage.clear();
});

it('hydrates a page the server rendered, booting from its state', async () => {
  page({ rendered: true, state: true });
  await start();
  expect(boot).toHaveBeenCalledWith(STATE);
  expect(hydrateRoot).toHaveBeenCalledTimes(1);
  expect(createRoot).not.toHaveBeenCalled();
});

it('renders a page left to the browser from the state it brought, asking for nothing', async () => {
  page({ rendered: false, state: true });
  await start();
  expect(boot).toHaveBeenCalledWith(STATE);
  expect(createRoot).toHaveBeenCalledTimes(1);
  expect(hydrateRoot).not.toHaveBeenCalled();
});

it('boots from nothing when the page has no state', async () => {
  page({ rendered: false, state: false });
  await start();
  expect(boot).toHaveBeenCalledWith(null);
  expect(createRoot).toHaveBeenCalledTimes(1);
});

it('leaves a QA session to choose its own releases', async () => {
  page({ rendered: true, state: true });
  localStorage.setItem('netnet:remote-overrides', JSON.stringify({ 'remote-title': '1.2.3' }));
  await start();
  expect(boot).toHaveBeenCalledWith(null);
  expect(createRoot).toHaveBeenCalledTimes(1);
  expect(hydrateRoot).not.toHaveBeenCalled();
});
