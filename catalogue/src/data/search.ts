// Search over names, through a word index. Names are built from a few hundred distinct words, so
// a query word is first matched against that vocabulary (substring), and only the titles holding
// a matching word are touched — a typical 100k search visits a few thousand titles, not 100k.
// Titles are numbered in popularity order, so candidates in ascending order need no sort.
// Results are memoised per query so paging through them does not search again.
import { fold } from './fold';
import { genresNamedBy, type MediaType } from './genres';
import { mergeByPopularity, type Catalogue, type TitleRecord } from './model';
import { keyBytes, Lru } from '../lru';

export type SearchScope = MediaType | 'multi';

/** Better name matches first; within a rank, popularity order. 0 means "no match". */
const Rank = { Exact: 1, Prefix: 2, WordStart: 3, Substring: 4, AllWords: 5 } as const;
const RANKS = 5;

interface SearchIndex {
  /** Most popular first; a title's number is its position here. */
  titles: TitleRecord[];
  folded: string[];
  vocabulary: string[];
  /** word → numbers of the titles whose name has it, ascending. */
  postings: Map<string, number[]>;
  /** word → numbers of the titles whose name starts with it, ascending. */
  leading: Map<string, number[]>;
  /** query word → numbers of the titles with a name word containing it. */
  containing: Lru<string, Int32Array>;
  /** Per-title working space, reused by every search (searches run one at a time). */
  scratch: { rankOf: Uint8Array };
}

interface SearchState {
  indexes: Partial<Record<SearchScope, SearchIndex>>;
  results: Lru<string, TitleRecord[]>;
}

const states = new WeakMap<Catalogue, SearchState>();

function stateOf(catalogue: Catalogue): SearchState {
  let state = states.get(catalogue);
  if (!state) {
    const results = new Lru<string, TitleRecord[]>({ maxEntries: 1000, maxBytes: 48 * 1024 * 1024, sizeOf: (list, key) => 8 * list.length + keyBytes(key) });
    states.set(catalogue, (state = { indexes: {}, results }));
  }
  return state;
}

/** Builds every scope's index now rather than on the first search (the server does it after listening). */
export function prepareSearch(catalogue: Catalogue): void {
  for (const scope of ['multi', 'movie', 'tv'] as const) indexFor(catalogue, scope);
}

function indexFor(catalogue: Catalogue, scope: SearchScope): SearchIndex {
  const state = stateOf(catalogue);
  const existing = state.indexes[scope];
  if (existing) return existing;
  const titles = scope === 'multi' ? catalogue.allByPopularity : catalogue.byPopularity[scope];
  const folded = titles.map((t) => (t.folded ??= fold(t.name)));
  const postings = new Map<string, number[]>();
  const leading = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, word: string, i: number) => {
    const list = map.get(word);
    if (!list) map.set(word, [i]);
    else if (list[list.length - 1] !== i) list.push(i); // a word twice in one name counts once
  };
  for (let i = 0; i < folded.length; i++) {
    const words = folded[i]!.split(' ');
    add(leading, words[0]!, i);
    for (const word of words) add(postings, word, i);
  }
  const index: SearchIndex = {
    titles,
    folded,
    vocabulary: [...postings.keys()],
    postings,
    leading,
    containing: new Lru({ maxEntries: 20_000, maxBytes: 32 * 1024 * 1024, sizeOf: (a, key) => a.byteLength + keyBytes(key) }),
    scratch: { rankOf: new Uint8Array(titles.length) },
  };
  state.indexes[scope] = index;
  return index;
}

export function searchTitles(catalogue: Catalogue, scope: SearchScope, query: string): TitleRecord[] {
  const q = fold(query);
  if (q === '') return [];
  const { results } = stateOf(catalogue);
  const key = `${scope}\n${q}`;
  let found = results.get(key);
  if (!found) {
    found = search(catalogue, scope, q);
    results.set(key, found);
  }
  return found;
}

/** Numbers of the titles with a name word containing `token`, ascending (memoised: tokens recur). */
function titlesContaining(index: SearchIndex, token: string): Int32Array {
  let titles = index.containing.get(token);
  if (!titles) {
    const lists: number[][] = [];
    for (const word of index.vocabulary) if (word.includes(token)) lists.push(index.postings.get(word)!);
    if (lists.length === 1) titles = Int32Array.from(lists[0]!);
    else {
      const all = Int32Array.from(lists.flat()).sort();
      let unique = 0;
      for (let k = 0; k < all.length; k++) if (k === 0 || all[k] !== all[k - 1]) all[unique++] = all[k]!;
      titles = all.slice(0, unique);
    }
    index.containing.set(token, titles);
  }
  return titles;
}

/** The numbers in both ascending arrays (galloping through the longer one when lengths differ a lot). */
function intersect(small: Int32Array, large: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(small.length, large.length));
  let n = 0;
  let j = 0;
  for (let k = 0; k < small.length && j < large.length; k++) {
    const value = small[k]!;
    let step = 1;
    while (j + step < large.length && large[j + step]! < value) step *= 2;
    let lo = j;
    let hi = Math.min(j + step, large.length - 1);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (large[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    j = lo;
    if (large[j] === value) out[n++] = value;
  }
  return out.subarray(0, n);
}

/**
 * Ranks for a one-word query, from the vocabulary alone: a word starting with the query makes a
 * word-start match (a prefix match when it is the name's first word), one containing it a
 * substring match. No per-title string work, so even 'e' over 100k titles stays cheap.
 */
function rankOneWord(index: SearchIndex, q: string, touched: number[]): void {
  const { rankOf } = index.scratch;
  for (const word of index.vocabulary) {
    const at = word.indexOf(q);
    if (at === -1) continue;
    const rank = at === 0 ? Rank.WordStart : Rank.Substring;
    for (const i of index.postings.get(word)!) {
      if (rankOf[i] === 0) touched.push(i);
      else if (rankOf[i]! <= rank) continue;
      rankOf[i] = rank;
    }
    if (at !== 0) continue;
    for (const i of index.leading.get(word) ?? []) rankOf[i] = index.folded[i] === q ? Rank.Exact : Rank.Prefix;
  }
}

/** Ranks for several words: every word must be inside the name, in any order. */
function rankWords(index: SearchIndex, q: string, words: string[], touched: number[]): void {
  const sets = words.map((word) => titlesContaining(index, word)).sort((a, b) => a.length - b.length);
  let found = sets[0]!;
  for (let k = 1; k < sets.length && found.length > 0; k++) found = intersect(found, sets[k]!);

  const { rankOf } = index.scratch;
  const spaced = ` ${q}`;
  for (const i of found) {
    const name = index.folded[i]!;
    const at = name.indexOf(q);
    rankOf[i] =
      at === -1
        ? Rank.AllWords // every word is there, in another order or apart
        : at === 0
          ? name.length === q.length
            ? Rank.Exact
            : Rank.Prefix
          : name.charCodeAt(at - 1) === 32 || name.includes(spaced, at)
            ? Rank.WordStart
            : Rank.Substring;
    touched.push(i);
  }
}

function search(catalogue: Catalogue, scope: SearchScope, q: string): TitleRecord[] {
  const index = indexFor(catalogue, scope);
  const { rankOf } = index.scratch;
  const touched: number[] = [];
  if (!q.includes(' ')) rankOneWord(index, q, touched);
  else rankWords(index, q, [...new Set(q.split(' '))], touched);

  // Title numbers are popularity order: visiting matches in ascending number fills each rank's
  // bucket already sorted. Few matches: sort them; many: one pass over all numbers is cheaper.
  const buckets: TitleRecord[][] = Array.from({ length: RANKS + 1 }, () => []);
  const collect = (i: number) => {
    buckets[rankOf[i]!]!.push(index.titles[i]!);
    rankOf[i] = 0; // leave the scratch array clean for the next search
  };
  if (touched.length * 8 < rankOf.length) Int32Array.from(touched).sort().forEach(collect);
  else for (let i = 0; i < rankOf.length; i++) if (rankOf[i] !== 0) collect(i);

  const byName = buckets.flat();
  const byGenre = genreMatches(catalogue, scope, q);
  if (byGenre.length === 0) return byName;
  const seen = new Set(byName);
  return byName.concat(byGenre.filter((t) => !seen.has(t) && (seen.add(t), true)));
}

/** 'comedy' or 'sci-fi' also finds the genre's titles (after the name matches), from the genre index. */
function genreMatches(catalogue: Catalogue, scope: SearchScope, q: string): TitleRecord[] {
  const lists: TitleRecord[][] = [];
  for (const type of ['movie', 'tv'] as const) {
    if (scope !== 'multi' && scope !== type) continue;
    for (const id of genresNamedBy(type, q)) lists.push(catalogue.byGenre(type).get(id) ?? []);
  }
  // Each list is already in popularity order: merging keeps it without a sort.
  return lists.reduce((merged, list) => mergeByPopularity(merged, list), []);
}
