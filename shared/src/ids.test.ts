import { parseTitleId } from './ids';

describe('parseTitleId', () => {
  it.each([
    ['1', 1],
    ['604', 604],
    ['1399', 1399],
    ['2147483647', 2147483647],
  ])('accepts %s', (raw, id) => {
    expect(parseTitleId(raw)).toBe(id);
  });

  it.each([
    undefined,
    null,
    '',
    '0',
    '06',
    '-1',
    '+1',
    '12.5',
    '1e3',
    '0x10',
    ' 1',
    '1 ',
    '２',
    '2147483648',
    '9999999999',
    '1'.repeat(40),
    '<script>',
  ])('refuses %p', (raw) => {
    expect(parseTitleId(raw)).toBeNull();
  });
});
