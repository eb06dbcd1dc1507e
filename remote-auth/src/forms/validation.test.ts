import { messages, prefillEmail, validateCredentials, validateEmail, validatePassword } from './validation';

describe('validateEmail', () => {
  it.each([
    ['', messages.emailRequired],
    ['   ', messages.emailRequired],
    ['plainaddress', messages.emailInvalid],
    ['@example.com', messages.emailInvalid],
    ['member@', messages.emailInvalid],
    ['member@example', messages.emailInvalid],
    ['member@example.', messages.emailInvalid],
    ['member@.com', messages.emailInvalid],
    ['member@exa mple.com', messages.emailInvalid],
    ['mem ber@example.com', messages.emailInvalid],
    ['member@@example.com', messages.emailInvalid],
    ['member@example.c', messages.emailInvalid],
    ['member@-example.com', messages.emailInvalid],
    ['member@example..com', messages.emailInvalid],
  ])('%j → %s', (email, message) => {
    expect(validateEmail(email)).toBe(message);
  });

  it.each([
    'member@example.com',
    'first.last+tag@sub.example.co.uk',
    'MEMBER@EXAMPLE.COM',
    'member@example.museum',
    'member@example.technology',
    'o\'brien@xn--bcher-kva.example',
    'anna@bücher.de',
    '  member@example.com  ',
  ])('%j is valid', (email) => {
    expect(validateEmail(email)).toBeUndefined();
  });

  it('accepts 254 characters and refuses 255', () => {
    expect(validateEmail('a'.repeat(242) + '@example.com')).toBeUndefined();
    expect(validateEmail('a'.repeat(243) + '@example.com')).toBe(messages.emailInvalid);
  });
});

describe('validatePassword', () => {
  it.each([
    ['empty', '', messages.passwordRequired],
    ['one space', ' ', messages.passwordRequired],
    ['six spaces', '      ', messages.passwordRequired],
    ['tabs and newlines', '\t\n  ', messages.passwordRequired],
    ['1 character', 'a', messages.passwordLength],
    ['5 characters', '12345', messages.passwordLength],
    ['61 characters', 'x'.repeat(61), messages.passwordLength],
    ['200 characters', 'x'.repeat(200), messages.passwordLength],
    ['5 emoji (10 UTF-16 units)', '🎬🎬🎬🎬🎬', messages.passwordLength],
  ])('%s → %s', (_case, password, message) => {
    expect(validatePassword(password)).toBe(message);
  });

  it.each([
    ['6 characters', '123456'],
    ['60 characters', 'x'.repeat(60)],
    ['inner spaces', 'with spaces'],
    ['a leading space within 6', ' 12345'],
    ['6 emoji', '🎬🎬🎬🎬🎬🎬'],
  ])('%s is valid', (_case, password) => {
    expect(validatePassword(password)).toBeUndefined();
  });
});

describe('validateCredentials', () => {
  it('reports each field that breaks a rule', () => {
    expect(validateCredentials({ email: '', password: '' })).toEqual({
      email: messages.emailRequired,
      password: messages.passwordRequired,
    });
    expect(validateCredentials({ email: 'member@example.com', password: '123' })).toEqual({
      password: messages.passwordLength,
    });
  });

  it('is empty for valid credentials', () => {
    expect(validateCredentials({ email: 'member@example.com', password: 'secret-42' })).toEqual({});
  });
});

describe('prefillEmail', () => {
  it('keeps a plain address', () => {
    expect(prefillEmail('member@example.com')).toBe('member@example.com');
  });

  it('is empty without a value', () => {
    expect(prefillEmail(null)).toBe('');
  });

  it('drops control characters and surrounding space, and caps the length', () => {
    expect(prefillEmail(' a@b.com\n<script>\u0000 ')).toBe('a@b.com<script>');
    expect(prefillEmail('x'.repeat(1000))).toHaveLength(254);
  });
});
