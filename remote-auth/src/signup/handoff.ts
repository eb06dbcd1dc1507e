// An address that already has an account moves from the sign-up form to Sign In with what the
// visitor typed (docs/product.md#sign-in-and-sign-up-messages). The email travels in the address
// (?email=); the password only here, in memory, once: never in the URL or the history's state.

interface Handoff {
  email: string;
  password: string;
}

let waiting: Handoff | null = null;

/** The sign-up form found an account for `email`: Sign In takes over the credentials. */
export function handOver(credentials: Handoff): void {
  waiting = credentials;
}

/** What the sign-up form handed over for `email`, if anything (read while rendering: no side effect). */
export function handedOver(email: string): Handoff | null {
  return waiting && waiting.email === email ? waiting : null;
}

/** Sign In has the credentials: they are not given out again. */
export function clearHandoff(): void {
  waiting = null;
}
