import { startVitals } from './vitals';

type Reporter = (metric: { value: number }) => void;
const mockReporters: Record<string, Reporter[]> = { lcp: [], inp: [], cls: [] };
// False: the web-vitals chunk fails to load, as import() does offline or when a deploy removed it.
let mockLoads = true;
jest.mock('web-vitals', () => {
  if (!mockLoads) throw new Error('Loading chunk web-vitals failed.');
  return {
    onLCP: (report: Reporter) => mockReporters.lcp!.push(report),
    onINP: (report: Reporter) => mockReporters.inp!.push(report),
    onCLS: (report: Reporter) => mockReporters.cls!.push(report),
  };
});

beforeEach(() => {
  jest.resetModules();
  mockLoads = true;
  for (const list of Object.values(mockReporters)) list.length = 0;
});

it('listens for LCP, INP and CLS and passes each on once, rounded', async () => {
  const seen: [string, number][] = [];
  await startVitals((name, value) => seen.push([name, value]));
  mockReporters.lcp![0]!({ value: 1834.7 });
  mockReporters.cls![0]!({ value: 0.123456 });
  mockReporters.inp![0]!({ value: 88.2 });
  // web-vitals reports CLS and INP again each time the page is hidden after they changed.
  mockReporters.cls![0]!({ value: 0.2 });
  mockReporters.inp![0]!({ value: 300 });
  expect(seen).toEqual([
    ['lcp', 1835],
    ['cls', 0.1235],
    ['inp', 88],
  ]);
});

it('settles without vitals when web-vitals cannot be loaded', async () => {
  mockLoads = false;
  const onVital = jest.fn();
  await expect(startVitals(onVital)).resolves.toBeUndefined();
  expect(mockReporters.lcp).toHaveLength(0);
  expect(onVital).not.toHaveBeenCalled();
});
