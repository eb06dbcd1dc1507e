import { useEffect, useReducer } from 'react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Trailer } from './Trailer';
import { initialTrailer, trailerReducer, type TrailerEvent } from './trailerState';

const CLIP = 'http://localhost:7070/media/demo-clip.mp4';
let send: (event: TrailerEvent) => void = () => {};

function Harness({ image = '/poster.jpg' }: { image?: string | null }) {
  const [state, dispatch] = useReducer(trailerReducer, initialTrailer);
  useEffect(() => {
    send = dispatch;
  }, [dispatch]);
  return <Trailer state={state} send={dispatch} name="Dune" image={image} />;
}

const video = () => document.querySelector('video')!;

beforeEach(() => {
  jest.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
});

it('shows the poster while the videos are unknown, without controls', () => {
  render(<Harness />);
  expect(screen.getByRole('img', { name: 'Dune poster' })).toHaveAttribute('src', '/poster.jpg');
  expect(screen.queryByRole('button')).not.toBeInTheDocument();
});

it('plays the self-hosted clip muted and looping, with play and mute controls once it has a picture', async () => {
  render(<Harness />);
  act(() => send({ type: 'videos', source: { kind: 'file', url: CLIP } }));
  expect(video()).toHaveAttribute('src', CLIP);
  expect(video().muted).toBe(true);
  expect(video().loop).toBe(true);
  expect(screen.getByRole('img', { name: 'Dune poster' })).toBeInTheDocument();

  fireEvent.loadedData(video());
  expect(screen.queryByRole('img', { name: 'Dune poster' })).not.toBeInTheDocument();
  const playToggle = screen.getByRole('button', { name: 'Pause trailer' });
  expect(playToggle).toHaveAttribute('data-playing', 'true');

  await userEvent.click(screen.getByRole('button', { name: 'Activate sound' }));
  expect(video().muted).toBe(false);
  expect(screen.getByRole('button', { name: 'Pause trailer' })).toBeInTheDocument();

  await userEvent.click(playToggle);
  expect(HTMLMediaElement.prototype.pause).toHaveBeenCalled();
  expect(screen.getByRole('button', { name: 'Play trailer' })).toHaveAttribute('data-playing', 'false');
  expect(screen.getByRole('button', { name: 'Mute sound' })).toBeInTheDocument();
});

it('shows the clip as paused when the player pauses on its own', () => {
  render(<Harness />);
  act(() => send({ type: 'videos', source: { kind: 'file', url: CLIP } }));
  fireEvent.loadedData(video());
  fireEvent.pause(video());
  expect(screen.getByRole('button', { name: 'Play trailer' })).toBeInTheDocument();
});

it('falls back to the poster when the clip cannot play', () => {
  render(<Harness />);
  act(() => send({ type: 'videos', source: { kind: 'file', url: CLIP } }));
  fireEvent.error(video());
  expect(document.querySelector('video')).toBeNull();
  expect(screen.getByRole('img', { name: 'Dune poster' })).toBeInTheDocument();
  expect(screen.queryByRole('button')).not.toBeInTheDocument();
});

it('names a poster-less title in place of the image', () => {
  render(<Harness image={null} />);
  act(() => send({ type: 'videos', source: null }));
  expect(screen.getByRole('img', { name: 'Dune poster' })).toHaveTextContent('Dune');
});

it('loads the YouTube player script for a YouTube trailer, and shows the poster if it fails', async () => {
  render(<Harness />);
  act(() => send({ type: 'videos', source: { kind: 'youtube', key: 'abc123' } }));
  const script = document.querySelector<HTMLScriptElement>('script[src="https://www.youtube.com/iframe_api"]');
  expect(script).not.toBeNull();
  await act(async () => {
    script!.dispatchEvent(new Event('error'));
  });
  expect(screen.getByRole('img', { name: 'Dune poster' })).toBeInTheDocument();
  expect(screen.queryByRole('button')).not.toBeInTheDocument();
});

it('drives a YouTube trailer through the IFrame API: muted, looping, play/pause and mute', async () => {
  const player = { playVideo: jest.fn(), pauseVideo: jest.fn(), seekTo: jest.fn(), mute: jest.fn(), unMute: jest.fn(), destroy: jest.fn() };
  type Events = { onReady(e: unknown): void; onStateChange(e: unknown): void };
  let options: { videoId: string; playerVars: Record<string, unknown>; events: Events } | undefined;
  window.YT = {
    Player: jest.fn((_element: HTMLElement, given: typeof options) => {
      options = given;
      return player;
    }),
    PlayerState: { ENDED: 0, PLAYING: 1, PAUSED: 2 },
  } as never;
  try {
    render(<Harness />);
    await act(async () => send({ type: 'videos', source: { kind: 'youtube', key: 'abc123' } }));
    expect(options).toMatchObject({ videoId: 'abc123', playerVars: { autoplay: 1, mute: 1, loop: 1, playlist: 'abc123', controls: 0 } });

    act(() => options!.events.onReady({ target: player, data: -1 }));
    expect(player.mute).toHaveBeenCalled();
    expect(player.playVideo).toHaveBeenCalled();
    expect(screen.queryByRole('img', { name: 'Dune poster' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Activate sound' }));
    expect(player.unMute).toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Pause trailer' }));
    expect(player.pauseVideo).toHaveBeenCalled();

    act(() => options!.events.onStateChange({ target: player, data: 1 }));
    expect(screen.getByRole('button', { name: 'Pause trailer' })).toBeInTheDocument();
    act(() => options!.events.onStateChange({ target: player, data: 2 }));
    expect(screen.getByRole('button', { name: 'Play trailer' })).toBeInTheDocument();

    player.seekTo.mockClear();
    act(() => options!.events.onStateChange({ target: player, data: 0 }));
    expect(player.seekTo).toHaveBeenCalledWith(0, true);
  } finally {
    delete window.YT;
  }
});

it('restarts from the beginning only when asked, not on a plain resume', async () => {
  render(<Harness />);
  act(() => send({ type: 'videos', source: { kind: 'file', url: CLIP } }));
  fireEvent.loadedData(video());
  video().currentTime = 4;
  act(() => send({ type: 'restart' }));
  expect(video().currentTime).toBe(0);

  video().currentTime = 3;
  await userEvent.click(screen.getByRole('button', { name: 'Pause trailer' }));
  await userEvent.click(screen.getByRole('button', { name: 'Play trailer' }));
  expect(video().currentTime).toBe(3);
});
