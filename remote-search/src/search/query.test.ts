import { cleanQuery, isDamagedQuery, MAX_QUERY_LENGTH, searchTerms } from './query';

describe('cleanQuery', () => {
  it('treats missing, empty and whitespace-only input as no query', () => {
    expect(cleanQuery(null)).toBe('');
    expect(cleanQuery(undefined)).toBe('');
    expect(cleanQuery('')).toBe('');
    expect(cleanQuery(' \t\n\u00a0\u3000 ')).toBe('');
  });

  it('trims and collapses every run of whitespace or control characters into one space', () => {
    expect(cleanQuery('  the \t silent\n\nharbor\u0000 ')).toBe('the silent harbor');
    expect(cleanQuery('a\u00a0\u2003b')).toBe('a b');
  });

  it('keeps the case and punctuation the member typed', () => {
    expect(cleanQuery('Léon: The Professional!')).toBe('Léon: The Professional!');
  });

  it('NFC-normalises, so a decomposed accent equals the composed one', () => {
    const decomposed = 'Ame\u0301lie';
    expect(cleanQuery(decomposed)).toBe('Am\u00e9lie');
    expect(cleanQuery(decomposed)).toHaveLength(6);
  });

  it('cuts a 10,000-character query to the maximum length', () => {
    const cleaned = cleanQuery('x'.repeat(10_000));
    expect(cleaned).toBe('x'.repeat(MAX_QUERY_LENGTH));
  });

  it('collapses whitespace before measuring, and never ends on a space after cutting', () => {
    expect(cleanQuery(`${'a '.repeat(10)}${' '.repeat(5000)}b`)).toBe(`${'a '.repeat(10)}b`);
    const cut = cleanQuery(`${'y'.repeat(MAX_QUERY_LENGTH - 1)} zzz`);
    expect(cut).toBe('y'.repeat(MAX_QUERY_LENGTH - 1));
  });

  it('counts characters, not UTF-16 units, so an emoji is never split in half', () => {
    const cleaned = cleanQuery('🎬'.repeat(150));
    expect(Array.from(cleaned)).toHaveLength(MAX_QUERY_LENGTH);
    expect(cleaned).toBe('🎬'.repeat(MAX_QUERY_LENGTH));
  });

  it('drops invisible characters that could hide or reverse the query, but keeps joiners', () => {
    expect(cleanQuery('\u200b\u200b')).toBe('');
    expect(cleanQuery('co\u200bmedy\ufeff')).toBe('comedy');
    expect(cleanQuery('\u202egro.live\u202c')).toBe('gro.live');
    expect(cleanQuery('\u2067مرحبا\u2069 \u200fworld')).toBe('مرحبا world');
    expect(cleanQuery('👩\u200d💻')).toBe('👩\u200d💻');
  });

  it('leaves markup as plain text for the page to show', () => {
    expect(cleanQuery('<img src=x onerror=alert(1)>')).toBe('<img src=x onerror=alert(1)>');
  });
});

describe('searchTerms', () => {
  it('leaves emoji out of what is asked, and keeps the words', () => {
    expect(searchTerms('🎬 the')).toBe('the');
    expect(searchTerms('the 👍🏽 night')).toBe('the night');
    expect(searchTerms('👩‍👩‍👧 family 🇫🇷')).toBe('family');
    expect(searchTerms('1️⃣ love')).toBe('1 love');
  });

  it('keeps a query of emoji only as it is, so it finds nothing rather than everything', () => {
    expect(searchTerms('🎬')).toBe('🎬');
  });

  it('keeps letters of every script and punctuation', () => {
    expect(searchTerms('Amélie: 東京')).toBe('Amélie: 東京');
  });
});

describe('isDamagedQuery', () => {
  it('finds a ?q= whose percent-encoding is broken', () => {
    expect(isDamagedQuery('?q=%E0%A4%A')).toBe(true);
    expect(isDamagedQuery('?play=1&q=%')).toBe(true);
    expect(isDamagedQuery('?q=%FF')).toBe(true);
  });

  it('accepts well-formed queries, other parameters and no query', () => {
    expect(isDamagedQuery('?q=%E0%A4%A4')).toBe(false);
    expect(isDamagedQuery('?q=the+night')).toBe(false);
    expect(isDamagedQuery('?x=%E0&q=ok')).toBe(false);
    expect(isDamagedQuery('')).toBe(false);
  });
});
