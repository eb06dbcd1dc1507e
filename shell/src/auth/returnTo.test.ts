import { forgetReturnTo, rememberReturnTo, returnTo, startLeaving, stopLeaving } from './returnTo';

afterEach(() => {
  stopLeaving();
  forgetReturnTo();
});

describe('the return-to page', () => {
  it('is the page a visitor was sent away from, with its query', () => {
    rememberReturnTo('/tv/5506?play=1');
    expect(returnTo()).toBe('/tv/5506?play=1');
    forgetReturnTo();
    expect(returnTo()).toBeNull();
  });

  it('is kept for the tab (sessionStorage), so it outlives the page that set it', () => {
    rememberReturnTo('/title/604');
    expect(sessionStorage.getItem('netnet:return-to')).toBe('/title/604');
  });

  it.each(['//evil.example/x', 'https://evil.example/', 'javascript:alert(1)', '/\\evil.example'])('is never another site (%s)', (path) => {
    rememberReturnTo(path);
    expect(returnTo()).toBeNull();
    sessionStorage.setItem('netnet:return-to', path);
    expect(returnTo()).toBeNull();
  });

  it('is forgotten when a member signs out, and the page they leave is not remembered', () => {
    rememberReturnTo('/title/604');
    startLeaving();
    expect(returnTo()).toBeNull();
    rememberReturnTo('/search?q=secret');
    expect(returnTo()).toBeNull();
    // Once the visitors' page shows, a visitor's deep link counts again.
    stopLeaving();
    rememberReturnTo('/tv/5506');
    expect(returnTo()).toBe('/tv/5506');
  });

  it('does without storage the browser blocks', () => {
    const getItem = jest.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    const setItem = jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    expect(() => rememberReturnTo('/title/604')).not.toThrow();
    expect(returnTo()).toBeNull();
    getItem.mockRestore();
    setItem.mockRestore();
  });
});
