// The catalogue as a render process reaches it: it has no network (docs/sandbox.md), so its
// fetches come to its server as `fetch` frames, and the server makes only the calls a page makes:
// a GET of one of the catalogue's paths below, on the site's catalogue, answered within a size cap
// and a deadline. Answers are kept a minute for every process of the server, as the browser's
// client keeps them: the catalogue is the same for everyone.

/** The catalogue paths pages read (shared's catalogue client, `catalogue` in its paths). */
const PAGE_PATHS = [
  /^\/3\/(movie|tv)\/popular$/,
  /^\/3\/discover\/(movie|tv)$/,
  /^\/3\/genre\/(movie|tv)\/list$/,
  /^\/3\/search\/(multi|movie|tv)$/,
  /^\/3\/(movie|tv)\/\d{1,10}$/,
  /^\/3\/(movie|tv)\/\d{1,10}\/(credits|videos|recommendations|similar)$/,
  /^\/3\/movie\/upcoming$/,
];

/** The largest catalogue answer handed to a render process (a page of results is a few KB). */
export const MAX_ANSWER_BYTES = 1024 * 1024;
/** How long an answer is kept for the next render, and how many are kept. */
const KEPT_MS = 60_000;
const KEPT_ANSWERS = 500;

export interface CatalogueAnswer {
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  body: string;
}

/** Why `url` is not a call a page makes, or null when it is one. */
export function refusedCall(url: string, catalogueUrl: string): string | null {
  let wanted: URL;
  let base: URL;
  try {
    wanted = new URL(url);
    base = new URL(catalogueUrl);
  } catch {
    return 'not a URL';
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  if (wanted.origin !== base.origin || !wanted.pathname.startsWith(`${prefix}/`)) return 'not the catalogue';
  if (wanted.username || wanted.password || wanted.hash) return 'not a catalogue call';
  const path = wanted.pathname.slice(prefix.length);
  return PAGE_PATHS.some((pattern) => pattern.test(path)) ? null : `not a catalogue path pages read (${path.slice(0, 80)})`;
}

export interface CatalogueGate {
  /** The answer to `url`, or a rejection saying why not; `deadlineMs` from now at most. */
  call(url: string, deadlineMs: number): Promise<CatalogueAnswer>;
}

export function createCatalogueGate({ catalogueUrl, get = fetch, now = Date.now }: { catalogueUrl: string; get?: typeof fetch; now?: () => number }): CatalogueGate {
  const kept = new Map<string, { at: number; answer: CatalogueAnswer }>();
  const inFlight = new Map<string, Promise<CatalogueAnswer>>();

  async function ask(url: string, deadlineMs: number): Promise<CatalogueAnswer> {
    const response = await get(url, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(deadlineMs), redirect: 'error' });
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > MAX_ANSWER_BYTES) throw new Error(`the catalogue's answer is over ${MAX_ANSWER_BYTES} bytes`);
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = response.body?.getReader();
    for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) {
      size += part.value.length;
      if (size > MAX_ANSWER_BYTES) {
        await reader?.cancel();
        throw new Error(`the catalogue's answer is over ${MAX_ANSWER_BYTES} bytes`);
      }
      chunks.push(part.value);
    }
    const answer = { status: response.status, contentType: response.headers.get('content-type'), retryAfter: response.headers.get('retry-after'), body: Buffer.concat(chunks).toString('utf8') };
    if (response.ok) {
      kept.delete(url);
      kept.set(url, { at: now(), answer });
      if (kept.size > KEPT_ANSWERS) kept.delete(kept.keys().next().value!);
    }
    return answer;
  }

  return {
    call(url, deadlineMs) {
      const refused = refusedCall(url, catalogueUrl);
      if (refused) return Promise.reject(new Error(`refused: ${refused}`));
      const hit = kept.get(url);
      if (hit && now() - hit.at < KEPT_MS) return Promise.resolve(hit.answer);
      let call = inFlight.get(url);
      if (!call) {
        call = ask(url, Math.max(1, deadlineMs)).finally(() => inFlight.delete(url));
        inFlight.set(url, call);
      }
      return call;
    },
  };
}
