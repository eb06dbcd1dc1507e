import type { VitalName } from './reports';

// The page's web vitals, measured by web-vitals. It is fetched here, in a chunk of its own, when
// release health starts (after the first page): nothing of it is in the shell's initial scripts.
// Its observers read the entries buffered since the page opened, so loading it late loses no LCP
// or layout shift. LCP is final at the first input, CLS and INP when the page is hidden.

/** Rounded: the collector needs no more precision, and the beacon stays small. */
const rounded = (name: VitalName, value: number) => (name === 'cls' ? Math.round(value * 10_000) / 10_000 : Math.round(value));

/**
 * Calls `onVital` once per vital for this document. web-vitals reports CLS and INP again each time
 * the page is hidden after it changed; a document's vitals are samples, so each counts once.
 * Settles once web-vitals is listening (or could not be loaded: then there are no vitals).
 */
export async function startVitals(onVital: (name: VitalName, value: number) => void): Promise<void> {
  const seen = new Set<VitalName>();
  const reporter =
    (name: VitalName) =>
    ({ value }: { value: number }) => {
      if (seen.has(name)) return;
      seen.add(name);
      onVital(name, rounded(name, value));
    };
  try {
    const { onLCP, onINP, onCLS } = await import(/* webpackChunkName: "web-vitals" */ 'web-vitals');
    onLCP(reporter('lcp'));
    onINP(reporter('inp'));
    onCLS(reporter('cls'));
  } catch {
    // The chunk did not load: this page sends no vitals, its outcomes still go out.
  }
}
