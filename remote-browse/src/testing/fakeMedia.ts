// jsdom does not implement media playback: a small stand-in that keeps `paused` and fires the
// play/pause events the way a browser does, so components can be tested through what they show.
export function fakeMediaPlayback({ refusePlay = false } = {}) {
  const paused = new WeakMap<HTMLMediaElement, boolean>();
  jest.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockImplementation(function (this: HTMLMediaElement) {
    return paused.get(this) ?? true;
  });
  const play = jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    if (refusePlay) return Promise.reject(new DOMException('play() was refused', 'NotAllowedError'));
    paused.set(this, false);
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  const pause = jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    paused.set(this, true);
    this.dispatchEvent(new Event('pause'));
  });
  return { play, pause };
}

/** Switches the tab's visibility as the browser would. */
export function setTabHidden(hidden: boolean): void {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
  document.dispatchEvent(new Event('visibilitychange'));
}
