// The credentials rules (docs/product.md#forms-and-validation), kept pure so both forms and their tests share one truth.

export interface Credentials {
  email: string;
  password: string;
}

export type CredentialsErrors = Partial<Record<keyof Credentials, string>>;

export const messages = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  passwordLength: 'Password should be between 6 and 60 characters',
} as const;

/** RFC 5321's limit on a whole address; also caps what a `?email=` link can prefill. */
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 60;

// One '@', no spaces, and a dotted domain whose last label has two or more letters. Any TLD is
// accepted; the identity provider has the final word on the rest.
const EMAIL_PATTERN = /^[^\s@]+@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,}$/u;

export function validateEmail(value: string): string | undefined {
  const email = value.trim();
  if (!email) return messages.emailRequired;
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) return messages.emailInvalid;
  return undefined;
}

export function validatePassword(value: string): string | undefined {
  if (!value.trim()) return messages.passwordRequired;
  // Code points, not UTF-16 units: an emoji is one character to the member typing it.
  const length = Array.from(value).length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) return messages.passwordLength;
  return undefined;
}

export function validateCredentials({ email, password }: Credentials): CredentialsErrors {
  const errors: CredentialsErrors = {};
  const emailError = validateEmail(email);
  const passwordError = validatePassword(password);
  if (emailError) errors.email = emailError;
  if (passwordError) errors.password = passwordError;
  return errors;
}

/** A `?email=` value as the form may show it: plain text, one line, no longer than an address can be. */
export function prefillEmail(raw: string | null): string {
  // eslint-disable-next-line no-control-regex
  return (raw ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, EMAIL_MAX_LENGTH);
}
