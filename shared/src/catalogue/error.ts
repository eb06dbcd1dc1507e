// Every way a catalogue call can fail, as one error type a screen can show or log.
import type { CatalogueErrorBody } from '../types';

/**
 * http: the catalogue answered with an error status; network: no answer at all; timeout: no
 * answer in time; parse: an answer that is not JSON; empty: an answer with no data (docs/product.md#error-catalogue).
 */
export type CatalogueErrorKind = 'http' | 'network' | 'timeout' | 'parse' | 'empty';

export class CatalogueError extends Error {
  override readonly name = 'CatalogueError';
  readonly kind: CatalogueErrorKind;
  /** The HTTP status; 0 when there was no answer. */
  readonly status: number;
  /** TMDB's status_code from the error body, when there was one. */
  readonly statusCode: number | null;
  readonly url: string;

  constructor(
    message: string,
    details: { kind: CatalogueErrorKind; url: string; status?: number; statusCode?: number | null; cause?: unknown },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = details.kind;
    this.url = details.url;
    this.status = details.status ?? 0;
    this.statusCode = details.statusCode ?? null;
  }
}

export function isCatalogueErrorBody(value: unknown): value is CatalogueErrorBody {
  return !!value && typeof value === 'object' && typeof (value as CatalogueErrorBody).status_message === 'string';
}

/** True for the rejection of a call its caller aborted (not a failure to show). */
export function isAbortError(error: unknown): boolean {
  return !!error && typeof error === 'object' && (error as { name?: unknown }).name === 'AbortError';
}
