// Log lines that hold what a client sent. Quoted as JSON strings, so a newline, a carriage return
// or any control character in it is written as an escape and cannot start a line of its own (a
// forged "[guard] rollback …" line); cut at `max` characters. And a rate for lines a client can
// cause at will (a refused pin per request): one line per interval, saying how many it left out.

/** `value` as a JSON string literal, at most `max` characters of it. */
export function quote(value: unknown, max = 200): string {
  const text = String(value);
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

/**
 * A log that writes at most one line per `everyMs`; the next line written says how many were
 * left out meanwhile. `now`: the clock (ms).
 */
export function throttledLog(write: (line: string) => void, { everyMs = 10_000, now = Date.now }: { everyMs?: number; now?: () => number } = {}) {
  let last = -Infinity;
  let skipped = 0;
  return (line: string): boolean => {
    const at = now();
    if (at - last < everyMs) {
      skipped += 1;
      return false;
    }
    write(skipped > 0 ? `${line} (and ${skipped} more like it left out of the log since the last)` : line);
    last = at;
    skipped = 0;
    return true;
  };
}
