// autocannon and the shell's 103 Early Hints, for the benchmarks that load its pages.

/**
 * The shell's server sends 103 Early Hints before each page. Autocannon's HTTP parser takes that
 * interim response for the answer: it counts a non-2xx with the hints' latency, sends the next
 * request while the page is still coming (and, rate-limited, crashes on the page it no longer
 * expects). Its client sets the parser's callbacks after setupClient runs, so they are wrapped as
 * they are set: an interim (1xx) response's headers and end are not passed on.
 */
export function skipInterimResponses(client) {
  const { parser } = client;
  const { kOnHeadersComplete, kOnMessageComplete } = parser.constructor;
  let interim = false;
  let onHeaders = () => {};
  let onComplete = () => {};
  Object.defineProperty(parser, kOnHeadersComplete, {
    get:
      () =>
      (...args) => {
        const status = typeof args[0] === 'object' ? args[0].statusCode : args[5];
        interim = status >= 100 && status < 200;
        return interim ? undefined : onHeaders(...args);
      },
    set: (handler) => {
      onHeaders = handler;
    },
  });
  Object.defineProperty(parser, kOnMessageComplete, {
    get: () => () => {
      if (interim) {
        interim = false;
        return undefined;
      }
      return onComplete();
    },
    set: (handler) => {
      onComplete = handler;
    },
  });
}

