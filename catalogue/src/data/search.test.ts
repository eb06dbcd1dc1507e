import { fold } from './fold';
import { generateCatalogue } from './generate';
import { parseToday } from './model';
import { searchTitles } from './search';

const catalogue = generateCatalogue({ size: 3000, seed: 42, today: parseToday('2025-06-01') });
const names = (list: { name: string }[]) => list.map((t) => t.name);

describe('search', () => {
  const someTitle = catalogue.byPopularity.movie[10]!;

  it('finds a title by its exact name first, whatever the case', () => {
    const found = searchTitles(catalogue, 'movie', someTitle.name.toUpperCase());
    expect(found[0]!.name.toLowerCase()).toBe(someTitle.name.toLowerCase());
  });

  it('matches substrings and ranks word starts above mid-word matches', () => {
    const found = searchTitles(catalogue, 'multi', 'arbo');
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((t) => t.name.toLowerCase().includes('arbo'))).toBe(true);
  });

  it('matches every word in any order', () => {
    const target = catalogue.allByPopularity.find((t) => t.name.split(' ').length === 3 && !t.name.includes('&'))!;
    const [a, b, c] = target.name.toLowerCase().split(' ');
    expect(names(searchTitles(catalogue, 'multi', `${c} ${b} ${a}`))).toContain(target.name);
  });

  it('ignores accents both ways (Unicode)', () => {
    const accented = catalogue.allByPopularity.find((t) => /[éüöñó]/i.test(t.name))!;
    const plain = accented.name.normalize('NFKD').replace(/\p{M}/gu, '');
    expect(names(searchTitles(catalogue, 'multi', plain))).toContain(accented.name);
    expect(searchTitles(catalogue, 'multi', 'zürich').length).toBe(searchTitles(catalogue, 'multi', 'ZURICH').length);
  });

  it('a genre name also returns titles of that genre, after the name matches', () => {
    const comedies = searchTitles(catalogue, 'movie', 'Comedy');
    expect(comedies.length).toBeGreaterThanOrEqual(catalogue.byGenre('movie').get(35)!.length);
    expect(comedies.every((t) => t.genreIds.includes(35) || t.name.toLowerCase().includes('comedy'))).toBe(true);
    expect(searchTitles(catalogue, 'tv', 'DRAMA').some((t) => t.genreIds.includes(18))).toBe(true);
    expect(searchTitles(catalogue, 'movie', 'sci-fi').every((t) => t.genreIds.includes(878))).toBe(true);
    expect(searchTitles(catalogue, 'tv', 'sci-fi').every((t) => t.genreIds.includes(10765))).toBe(true);
  });

  it('multi searches movies and series; a scope keeps to its type', () => {
    const multi = searchTitles(catalogue, 'multi', 'drama');
    expect(new Set(multi.map((t) => t.type))).toEqual(new Set(['movie', 'tv']));
    expect(searchTitles(catalogue, 'tv', 'drama').every((t) => t.type === 'tv')).toBe(true);
  });

  it('lists each title once', () => {
    const found = searchTitles(catalogue, 'multi', 'kids');
    expect(new Set(found).size).toBe(found.length);
  });

  it('gives the same answers whatever was searched before (working space is reused)', () => {
    const fresh = generateCatalogue({ size: 3000, seed: 42, today: parseToday('2025-06-01') });
    const queries = ['the silent', 'e', 'harbor of', 'of', 'river', 'silent the', 'a b c'];
    const first = queries.map((q) => names(searchTitles(fresh, 'multi', q)));
    const other = generateCatalogue({ size: 3000, seed: 42, today: parseToday('2025-06-01') });
    const reversed = [...queries].reverse().map((q) => names(searchTitles(other, 'multi', q))).reverse();
    expect(reversed).toEqual(first);
    // and each matches a plain scan
    for (const [k, q] of queries.entries()) {
      const words = q.split(' ');
      const expected = other.allByPopularity.filter((t) => words.every((w) => fold(t.name).includes(w)));
      expect(new Set(first[k])).toEqual(new Set(names(expected)));
    }
  });

  it('finds nothing for an empty query or a string no name has', () => {
    expect(searchTitles(catalogue, 'multi', '   ')).toEqual([]);
    expect(searchTitles(catalogue, 'multi', 'qqqxqqq')).toEqual([]);
  });
});
