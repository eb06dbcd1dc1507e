// TMDB's error shape and the status codes/messages TMDB uses for each situation, so a client
// written against TMDB handles the embedded service's errors the same way.

export interface TmdbError {
  httpStatus: number;
  statusCode: number;
  message: string;
}

const error = (httpStatus: number, statusCode: number, message: string): TmdbError => ({ httpStatus, statusCode, message });

export const errors = {
  notFound: error(404, 34, 'The resource you requested could not be found.'),
  invalidPage: error(422, 22, 'Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.'),
  invalidParameters: error(422, 5, 'Invalid parameters: Your request parameters are incorrect.'),
  invalidInput: error(422, 47, 'The input is not valid.'),
  rateLimited: error(429, 25, 'Your request count is over the allowed limit. Try again later.'),
  methodNotAllowed: error(405, 42, 'The request method is not supported for this resource.'),
  internal: error(500, 11, 'Internal error: Something went wrong, contact TMDb.'),
  badGateway: error(502, 43, "Couldn't connect to the backend server."),
  gatewayTimeout: error(504, 24, 'Your request to the backend server timed out. Try again.'),
} as const;

export const errorJson = (e: TmdbError): string =>
  JSON.stringify({ success: false, status_code: e.statusCode, status_message: e.message });

/** Thrown by request handlers for an expected client error; the server turns it into JSON. */
export class HttpError extends Error {
  constructor(readonly tmdb: TmdbError) {
    super(tmdb.message);
  }
}
