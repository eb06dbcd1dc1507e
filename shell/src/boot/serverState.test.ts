import { readServerState, serializeState, SERVER_STATE_ID, type ServerState } from './serverState';

const HOSTILE = 'a</script><script>alert(1)</script><!-- b & c \u2028 d \u2029 e > f';

const state = (overrides: Partial<ServerState> = {}): ServerState => ({
  config: {
    catalogueUrl: 'http://catalogue.test',
    firebase: { apiKey: 'k', authDomain: 'd', projectId: 'demo-netnet' },
    authEmulatorUrl: null,
  },
  map: { remotes: { 'remote-title': { stable: { version: '1.0.0', entry: 'http://cdn.test/mf-manifest.json' } } } },
  chosen: {
    'remote-title': { version: '1.0.0', entry: 'http://cdn.test/mf-manifest.json', channel: 'stable', bucket: 42.5 },
  },
  catalogue: {
    'http://catalogue.test/3/movie/604': { id: 604, title: HOSTILE, overview: `<!--${HOSTILE}-->` },
    [`http://catalogue.test/3/search/movie?query=${HOSTILE}`]: { results: [] },
  },
  member: 'uid-1',
  redirect: { to: '/', from: `/title/604?x=${HOSTILE}` },
  ...overrides,
});

/** A page as the server writes it: the state in its JSON script, after the render. */
function pageWith(json: string): Document {
  const html = `<!doctype html><html><head></head><body><div id="root"><p>page</p></div><script type="application/json" id="${SERVER_STATE_ID}">${json}</script><p id="after">after</p></body></html>`;
  return new DOMParser().parseFromString(html, 'text/html');
}

describe('serializeState', () => {
  it('writes none of the characters that could end or disturb the script, whatever the values hold', () => {
    const text = serializeState(state());
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(text.toLowerCase()).not.toContain('</script');
    expect(text).not.toContain('<!--');
  });

  it('is JSON that gives back the very same state', () => {
    const original = state();
    expect(JSON.parse(serializeState(original))).toEqual(original);
    expect(JSON.parse(serializeState(original)).catalogue['http://catalogue.test/3/movie/604'].title).toBe(HOSTILE);
  });

  it('survives the HTML parser: the page keeps one script, and the state reads back whole', () => {
    const original = state();
    const doc = pageWith(serializeState(original));
    expect(doc.querySelectorAll('script')).toHaveLength(1);
    expect(doc.getElementById('after')?.textContent).toBe('after');
    expect(readServerState(doc)).toEqual(original);
  });
});

describe('readServerState', () => {
  it('reads the state once and takes its script out of the page', () => {
    const original = state({ member: null, redirect: undefined });
    const doc = pageWith(serializeState(original));
    expect(readServerState(doc)).toEqual(JSON.parse(JSON.stringify(original)));
    expect(doc.getElementById(SERVER_STATE_ID)).toBeNull();
    expect(readServerState(doc)).toBeNull();
  });

  it('reads the page’s own document by default', () => {
    const original = state();
    const script = document.createElement('script');
    script.type = 'application/json';
    script.id = SERVER_STATE_ID;
    script.textContent = serializeState(original);
    document.body.append(script);
    expect(readServerState()).toEqual(original);
    expect(document.getElementById(SERVER_STATE_ID)).toBeNull();
  });

  it('is null for a page the server did not render', () => {
    expect(readServerState(document.implementation.createHTMLDocument('rendered in the browser'))).toBeNull();
    expect(readServerState(pageWith(''))).toBeNull();
  });

  it('is null for malformed JSON, or JSON that is not a state', () => {
    for (const broken of ['{"config":', 'not json', 'null', '42', '"text"', '{"map":{}}', '[]']) {
      const doc = pageWith(broken);
      expect(readServerState(doc)).toBeNull();
      expect(doc.getElementById(SERVER_STATE_ID)).toBeNull();
    }
  });
});
