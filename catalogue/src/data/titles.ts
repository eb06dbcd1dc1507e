// Invented title names, flavoured by the title's main genre.
import { chance, pick, type Random } from './random';
import {
  adjectives,
  firstNames,
  genreNouns,
  lastNames,
  nouns,
  numbers,
  places,
  pluralNouns,
  subtitles,
} from './words';
import type { MediaType } from './genres';

const nounFor = (random: Random, genreId: number): string => {
  const flavoured = genreNouns[genreId];
  return flavoured && chance(random, 0.55) ? pick(random, flavoured) : pick(random, nouns);
};

/** Genres whose titles read like a show format rather than a story. */
const formatShows: Record<number, (random: Random) => string> = {
  10763: (random) => `${pick(random, places)} ${pick(random, genreNouns[10763]!)}`,
  10767: (random) => `${pick(random, ['Late Night', 'Sunday', 'Morning', 'After Hours'])} with ${pick(random, firstNames)} ${pick(random, lastNames)}`,
  10764: (random) => `${pick(random, ['The Great', 'Ultimate', 'Extreme', 'Celebrity', 'Tiny'])} ${pick(random, places)} ${pick(random, genreNouns[10764]!)}`,
  99: (random) => `${pick(random, ['The Story of', 'Inside', 'Chasing', 'Voices of', 'The Making of'])} ${pick(random, places)}`,
};

export function inventName(random: Random, type: MediaType, genreId: number): string {
  const format = formatShows[genreId];
  if (format && chance(random, type === 'tv' ? 0.7 : 0.4)) return format(random);

  const noun = nounFor(random, genreId);
  const roll = random();
  let name: string;
  if (roll < 0.16) name = `The ${noun}`;
  else if (roll < 0.36) name = `The ${pick(random, adjectives)} ${noun}`;
  else if (roll < 0.48) name = `${noun} of ${pick(random, places)}`;
  else if (roll < 0.56) name = `${pick(random, firstNames)}'s ${noun}`;
  else if (roll < 0.64) name = `${noun} & ${nounFor(random, genreId)}`;
  else if (roll < 0.72) name = `${pick(random, numbers)} ${pick(random, pluralNouns)}`;
  else if (roll < 0.8) name = `${pick(random, ['Before', 'After', 'Beyond', 'Under', 'Across', 'Into'])} the ${pick(random, adjectives)} ${noun}`;
  else if (roll < 0.87) name = pick(random, places);
  else if (roll < 0.94) name = `${pick(random, adjectives)} ${pick(random, pluralNouns)}`;
  else name = type === 'tv' ? `The ${pick(random, lastNames)}s` : `${pick(random, adjectives)} ${noun}`;

  if (type === 'movie' && chance(random, 0.07)) name += `: ${pick(random, subtitles)}`;
  if (type === 'tv' && chance(random, 0.05)) name += ` (${pick(random, ['Revival', 'Limited Series', 'Unscripted'])})`;
  return name;
}
