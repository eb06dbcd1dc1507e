// The catalogue's settings: read once from the environment, every wrong one named (that each is in
// docs/environment.md is site/environment.test.mjs's check, for every process).
import { readConfig } from '@netnet/server-kit';
import { CONFIG } from './config';

it('has the documented defaults when nothing is set', () => {
  expect(readConfig(CONFIG, {})).toEqual(
    expect.objectContaining({ port: undefined, cataloguePort: 7070, host: '127.0.0.1', size: 3000, seed: 20240604, clientBurst: 40, clientPerSecond: 4, connectionsPerClient: 64, logLevel: 'info' }),
  );
});

it('reads numbers and lists, an empty variable counting as unset', () => {
  const config = readConfig(CONFIG, { PORT: '0', CATALOGUE_SIZE: '100000', NETNET_ALLOWED_ORIGINS: ' https://a.example , https://b.example ', NETNET_CATALOGUE_HOSTS: '', TMDB_API_KEY: '' });
  expect(config).toEqual(expect.objectContaining({ port: 0, size: 100000, allowedOrigins: ['https://a.example', 'https://b.example'], publicHosts: undefined, tmdbApiKey: undefined }));
});

it('refuses wrong values, naming each variable', () => {
  const wrong = { CATALOGUE_SIZE: '2000000', TMDB_CLIENT_BURST: '0', NETNET_CONNECTIONS_PER_CLIENT: 'many', NETNET_CATALOGUE_PUBLIC_URL: 'catalogue.example', CATALOGUE_TODAY: '1 June' };
  let message = '';
  try {
    readConfig(CONFIG, { ...wrong, PORT: '7070' });
  } catch (error) {
    message = (error as Error).message;
  }
  for (const [name, value] of Object.entries(wrong)) expect(message).toContain(`${name}=${JSON.stringify(value)}`);
  expect(message).not.toContain('PORT="7070"');
});
