import { useCallback, useEffect, useState } from 'react';
import { NOTICE_MS } from '@netnet/shared';

/** A message shown for a few seconds (Download, Play without a trailer, failed ratings). */
export function useNotice(): [message: string | null, show: (message: string) => void] {
  const [notice, setNotice] = useState<{ message: string; at: number } | null>(null);

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  // A new object each time, so repeating the same message shows it for the full time again.
  const show = useCallback((message: string) => setNotice({ message, at: Date.now() }), []);
  return [notice?.message ?? null, show];
}
