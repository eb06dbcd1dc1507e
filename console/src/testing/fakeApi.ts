// The control-plane API as the console's tests see it: every call the page makes is recorded and
// answered by the test (jsdom has no fetch), the stream of changes is a stand-in that stays quiet
// unless told, and <dialog> gets the showModal()/close() jsdom lacks (no focus moves: the console
// must give focus back itself).
import { fakeResponse } from '@netnet/shared/testing';

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

export type Answer = { status?: number; body: unknown };

/** Answers the console's calls with `answer`; returns every call made, in order. */
export function fakeApi(answer: (call: Call) => Answer): Call[] {
  const calls: Call[] = [];
  const fetch = async (path: string, init: RequestInit = {}) => {
    const call = { method: init.method ?? 'GET', path, body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined };
    calls.push(call);
    const { status = 200, body } = answer(call);
    return fakeResponse(status, body);
  };
  Object.assign(globalThis, { fetch });
  return calls;
}

/** The streams the page opened, by URL; `fail()` makes one answer as a refused or lost stream does. */
export function fakeEventSource() {
  const opened: FakeEventSource[] = [];
  class FakeEventSource {
    readonly listeners = new Map<string, ((event: Event) => void)[]>();
    constructor(readonly url: string) {
      opened.push(this);
    }
    addEventListener(type: string, listener: (event: Event) => void) {
      this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
    }
    fail() {
      for (const listener of this.listeners.get('error') ?? []) listener(new Event('error'));
    }
    close() {}
  }
  Object.assign(globalThis, { EventSource: FakeEventSource });
  return opened;
}

/** showModal() and close() as the browser runs them, focus aside: open, then a `close` event. */
export function dialogsOpenAndClose() {
  Object.assign(HTMLDialogElement.prototype, {
    showModal(this: HTMLDialogElement) {
      this.setAttribute('open', '');
    },
    close(this: HTMLDialogElement) {
      if (!this.hasAttribute('open')) return;
      this.removeAttribute('open');
      this.dispatchEvent(new Event('close'));
    },
  });
}
