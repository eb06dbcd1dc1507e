// Every environment variable the catalogue reads, with its schema, default and meaning (the table
// in catalogue/README.md); main.ts reads them once at start-up, and a wrong value stops it. Those
// every server reads alike are defined once, in @netnet/server-kit, and composed here.
import { CONNECTION_VARIABLES, LISTEN_VARIABLES, LOG_VARIABLES, PROXY_VARIABLES, variable, wholeNumber } from '@netnet/server-kit';
import { z } from 'zod';
import { parseList } from './cors';
import { MAX_SIZE } from './data/generate';
import { DEFAULT_CLIENT_RATE_LIMIT } from './proxy';
import { DEFAULT_SEED, DEFAULT_SIZE } from './server';

const text = z.string().optional();
const list = text.transform(parseList);
const url = z.url().optional();

export const CONFIG = {
  port: variable('PORT', wholeNumber().optional(), 'port to listen on (0 picks a free one); wins over NETNET_CATALOGUE_PORT'),
  cataloguePort: variable('NETNET_CATALOGUE_PORT', wholeNumber().default(7070), 'port to listen on when PORT is unset'),
  ...LISTEN_VARIABLES,
  size: variable('CATALOGUE_SIZE', wholeNumber(1).refine((n) => n <= MAX_SIZE, `must be at most ${MAX_SIZE}`).default(DEFAULT_SIZE), 'generated titles'),
  seed: variable('CATALOGUE_SEED', wholeNumber().default(DEFAULT_SEED), 'same seed, same catalogue'),
  today: variable('CATALOGUE_TODAY', z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'not YYYY-MM-DD').optional(), 'decides what movie/upcoming lists (the real today when unset)'),
  tmdbApiKey: variable('TMDB_API_KEY', text, 'proxy mode: a TMDB v3 key, or a v4 read token (a secret: it never leaves this service)'),
  upstream: variable('TMDB_UPSTREAM', url, 'proxy mode: the TMDB API (https://api.themoviedb.org when unset)'),
  imageUpstream: variable('TMDB_IMAGE_UPSTREAM', url, 'proxy mode: the TMDB image host (https://image.tmdb.org when unset)'),
  publicUrl: variable('NETNET_CATALOGUE_PUBLIC_URL', url, 'origin put in clip URLs, whenever browsers reach the service by another name than localhost'),
  publicHosts: variable('NETNET_CATALOGUE_HOSTS', list, 'without a public URL: comma-separated Host values trusted to name the service in clip URLs, besides loopback'),
  allowedOrigins: variable('NETNET_ALLOWED_ORIGINS', list, 'comma-separated CORS allow-list (* for any; any localhost origin when unset)'),
  clientBurst: variable('TMDB_CLIENT_BURST', wholeNumber(1).default(DEFAULT_CLIENT_RATE_LIMIT.burst), 'proxy mode: upstream fetches one client may start at once'),
  clientPerSecond: variable('TMDB_CLIENT_PER_SECOND', wholeNumber(1).default(DEFAULT_CLIENT_RATE_LIMIT.perSecond), 'proxy mode: upstream fetches one client regains each second'),
  ...CONNECTION_VARIABLES,
  ...PROXY_VARIABLES,
  ...LOG_VARIABLES,
};
