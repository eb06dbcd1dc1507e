import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { HomeTrailer } from './HomeTrailer';
import { fakeMediaPlayback, setTabHidden } from '../testing/fakeMedia';

const video = () => screen.getByLabelText('Netnet home trailer') as HTMLVideoElement;

/** Autoplay as the browser would do it once the clip is ready. */
function autoplay() {
  act(() => void video().play());
}

afterEach(() => {
  act(() => setTabHidden(false));
});

describe('HomeTrailer', () => {
  it('loops muted, inline and autoplaying, loading only metadata up front', () => {
    fakeMediaPlayback();
    render(<HomeTrailer />);
    const v = video();
    expect(v.muted).toBe(true);
    expect(v.loop).toBe(true);
    expect(v.autoplay).toBe(true);
    expect(v).toHaveAttribute('playsinline');
    expect(v).toHaveAttribute('preload', 'metadata');
    expect(v).toHaveAttribute('src', expect.stringContaining('test-file-stub'));
    expect(v).toHaveAttribute('poster', expect.stringContaining('test-file-stub'));
  });

  it('waits for Play when the member prefers reduced motion', async () => {
    fakeMediaPlayback();
    const matchMedia = jest.fn((query: string) => ({ matches: query === '(prefers-reduced-motion: reduce)' }));
    Object.defineProperty(window, 'matchMedia', { value: matchMedia, configurable: true, writable: true });
    try {
      const user = userEvent.setup();
      render(<HomeTrailer />);
      expect(video().autoplay).toBe(false);
      expect(video().paused).toBe(true);
      expect(screen.getByRole('button', { name: 'Play trailer' })).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Play trailer' }));
      expect(video().paused).toBe(false);
      expect(screen.getByRole('button', { name: 'Pause trailer' })).toBeInTheDocument();
    } finally {
      delete (window as Partial<Window>).matchMedia;
    }
  });

  it('leaves the clip out of the server’s page and starts it once the browser has taken the page over', async () => {
    fakeMediaPlayback();
    // The server's markup, parsed as the browser parses a page.
    const page = new DOMParser().parseFromString(`<div>${renderToString(<HomeTrailer />)}</div>`, 'text/html');
    const container = document.importNode(page.body.firstElementChild!, true) as HTMLElement;
    const served = container.querySelector('video')!;
    expect(served).not.toHaveAttribute('src');
    expect(served).not.toHaveAttribute('autoplay');
    expect(served).toHaveAttribute('preload', 'none');
    // The poster is the first paint.
    expect(served).toHaveAttribute('poster', expect.stringContaining('test-file-stub'));

    document.body.append(container);
    // React never writes `muted` into the server's HTML, and says so while taking the page over.
    jest.spyOn(console, 'error').mockImplementation(() => {});
    await act(async () => void hydrateRoot(container, <HomeTrailer />));
    expect(video()).toHaveAttribute('src', expect.stringContaining('test-file-stub'));
    // Muted, so the browser lets it play on its own.
    expect(video().muted).toBe(true);
    expect(video().autoplay).toBe(true);
    expect(video()).toHaveAttribute('preload', 'metadata');
    container.remove();
  });

  it('turns the sound on and off, naming the button for what it will do', async () => {
    fakeMediaPlayback();
    const user = userEvent.setup();
    render(<HomeTrailer />);

    await user.click(screen.getByRole('button', { name: 'Activate sound' }));
    expect(video().muted).toBe(false);
    expect(screen.queryByRole('button', { name: 'Activate sound' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Mute sound' }));
    expect(video().muted).toBe(true);
    expect(screen.getByRole('button', { name: 'Activate sound' })).toBeInTheDocument();
  });

  it('pauses while the tab is hidden and resumes when it is visible again', () => {
    const { play, pause } = fakeMediaPlayback();
    render(<HomeTrailer />);
    autoplay();
    expect(screen.getByRole('button', { name: 'Pause trailer' })).toBeInTheDocument();
    play.mockClear();

    act(() => setTabHidden(true));
    expect(pause).toHaveBeenCalledTimes(1);
    expect(video().paused).toBe(true);

    act(() => setTabHidden(false));
    expect(play).toHaveBeenCalledTimes(1);
    expect(video().paused).toBe(false);
  });

  it('keeps a trailer the member paused paused when the tab comes back', async () => {
    const { play } = fakeMediaPlayback();
    const user = userEvent.setup();
    render(<HomeTrailer />);
    autoplay();

    await user.click(screen.getByRole('button', { name: 'Pause trailer' }));
    play.mockClear();
    act(() => setTabHidden(true));
    act(() => setTabHidden(false));

    expect(play).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Play trailer' })).toBeInTheDocument();
  });

  it('stops listening to tab visibility once it is gone', () => {
    const { play, pause } = fakeMediaPlayback();
    const view = render(<HomeTrailer />);
    autoplay();
    const removed = jest.spyOn(document, 'removeEventListener');
    view.unmount();
    expect(removed).toHaveBeenCalledWith('visibilitychange', expect.any(Function));

    pause.mockClear();
    play.mockClear();
    setTabHidden(true);
    setTabHidden(false);
    expect(pause).not.toHaveBeenCalled();
    expect(play).not.toHaveBeenCalled();
  });

  it('stays paused, without an unhandled rejection, when the browser refuses to play', async () => {
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const { play } = fakeMediaPlayback({ refusePlay: true });
      const user = userEvent.setup();
      render(<HomeTrailer />);

      await user.click(screen.getByRole('button', { name: 'Play trailer' }));
      expect(play).toHaveBeenCalled();
      // Let the rejected promise settle and Node report it if nobody caught it.
      await new Promise((resolve) => setTimeout(resolve, 10));

      expect(unhandled).not.toHaveBeenCalled();
      expect(screen.getByRole('button', { name: 'Play trailer' })).toBeInTheDocument();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
