// Video lists. Offline no YouTube trailer can play, so embedded titles only ever offer the
// self-hosted demo clip — never invented YouTube keys.
import type { TitleRecord } from './model';
import { isoDate } from './model';

export const DEMO_CLIP_PATH = '/media/demo-clip.mp4';

export interface VideoEntry {
  id: string;
  iso_639_1: 'en';
  iso_3166_1: 'US';
  key: string;
  name: string;
  site: 'Netnet';
  size: 360;
  type: 'Trailer';
  official: true;
  published_at: string;
  url: string;
}

export interface VideosBody {
  id: number;
  results: VideoEntry[];
}

/** `origin` is the service's public origin (no trailing slash), as the client must reach it. */
export function videosOf(title: TitleRecord, origin: string): VideosBody {
  if (!title.hasVideo) return { id: title.id, results: [] };
  return {
    id: title.id,
    results: [
      {
        id: `${title.type}-${title.id}-trailer`,
        iso_639_1: 'en',
        iso_3166_1: 'US',
        key: 'demo-clip',
        name: `${title.name} | Official Trailer`,
        site: 'Netnet',
        size: 360,
        type: 'Trailer',
        official: true,
        published_at: `${isoDate(title.day - 60)}T17:00:00.000Z`,
        url: `${origin}${DEMO_CLIP_PATH}`,
      },
    ],
  };
}
