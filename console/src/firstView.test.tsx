import { act } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { App } from './App';
import type { Boot } from './boot';
import { renderFirstView } from './firstView';
import { owner as session } from './testing/fixtures';
import type { Overview, RemoteSummary } from './types';

// The first view as the control-plane API draws it into the page, then taken over by the browser's
// React from the same boot block: no mismatch (React would draw the page again, and say so).

const minutes = Array.from({ length: 60 }, (_, index) => ({ minute: 29_000_000 + index, sessions: index % 7 === 0 ? 0 : 300, failures: index % 5 }));
const totals = { sessions: 17_000, failures: 110, fellBack: 2, rate: 110 / 17_000, lcpP75: 1_800 };

function summary(remote: string, canary: boolean): RemoteSummary {
  return {
    remote,
    plan: canary ? { stable: '1.4.0', canary: { version: '1.5.0', percent: 20 } } : { stable: '1.4.0' },
    served: { pinnable: ['1.4.0'] },
    published: ['1.4.0', '1.5.0'],
    verdict: canary ? { action: 'rollback', why: 'failures', reason: 'the canary fails more than its stable', conclusion: 'regression', evidence: { canary: totals, stable: totals } } : null,
    failureRates: [{ release: '1.4.0', channel: 'stable', totals, minutes }, ...(canary ? [{ release: '1.5.0', channel: 'canary', totals, minutes }] : [])],
    can: remote === 'remote-title' ? { canary: null, promote: null, rollback: null } : { canary: 'title-owner covers remote-title only.', promote: 'title-owner covers remote-title only.', rollback: 'title-owner covers remote-title only.' },
  };
}

const overview: Overview = {
  environment: 'production',
  mapVersion: 12,
  readAt: '2026-11-28T04:00:00.000Z',
  pinPolicy: { production: true, pinRolledBack: false },
  canChangePins: 'title-owner may not pin (allowed: canary, promote, rollback, status).',
  remotes: [summary('remote-title', true), summary('remote-search', false)],
};

const boot: Boot = { session, first: { environment: 'production', overview } };

class QuietEventSource {
  addEventListener() {}
  close() {}
}

beforeEach(() => {
  Object.assign(globalThis, { EventSource: QuietEventSource });
  // Nothing is read again nor loaded later during the test: timeouts and intervals wait forever.
  jest.useFakeTimers({
    doNotFake: ['Date', 'hrtime', 'nextTick', 'performance', 'queueMicrotask', 'requestAnimationFrame', 'cancelAnimationFrame', 'requestIdleCallback', 'cancelIdleCallback', 'setImmediate', 'clearImmediate'],
  });
});

afterEach(() => {
  jest.useRealTimers();
});

it('is the HTML the browser takes over as it is', async () => {
  const html = renderFirstView(boot);
  const root = document.createElement('div');
  root.append(...new DOMParser().parseFromString(html, 'text/html').body.childNodes);
  document.body.append(root);
  const heading = root.querySelector('h2');
  expect(heading).toHaveTextContent('Every remote in production');

  const problems: unknown[] = [];
  let app: Root | undefined;
  await act(async () => {
    app = hydrateRoot(root, <App boot={boot} hash="#/production" />, { onRecoverableError: (error) => problems.push(error) });
  });
  expect(problems).toEqual([]);
  // The same element: taken over, not drawn again.
  expect(root.querySelector('h2')).toBe(heading);
  expect(root.querySelector('button[disabled]')).toHaveAccessibleDescription(/may not pin/);
  act(() => app?.unmount());
});
