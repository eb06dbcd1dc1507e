// Overviews and taglines, derived on demand from (seed, type, id) rather than stored.
import { firstNames, goals, incidents, lastNames, occupations, places, taglines, threats } from './words';
import { pick, streamFor } from './random';
import type { TitleRecord } from './model';

const nonFiction: Record<number, readonly string[]> = {
  99: [
    'An intimate portrait of {place} told by the people who never left.',
    'Filmed over ten years, this documentary follows {person} as they try to {goal}.',
    'Archive footage and new interviews reveal what really happened in {place}.',
  ],
  10763: ['Nightly headlines, interviews and analysis from the {place} newsroom.'],
  10764: [
    'Ten strangers arrive in {place} with one goal: to {goal}. Only one will leave with the prize.',
    'Hosted by {person}, contestants face a new challenge every week until {threat}.',
  ],
  10767: ['{person} welcomes guests from film, music and politics for candid late-night conversation.'],
};

export function overviewOf(seed: number, title: TitleRecord): string {
  const random = streamFor(seed, title.type, title.id, 'overview');
  const person = `${pick(random, firstNames)} ${pick(random, lastNames)}`;
  const templates = nonFiction[title.genreIds[0]!];
  const text = templates
    ? pick(random, templates)
    : `When ${person}, ${pick(random, occupations)} from {place}, ${pick(random, incidents)}, they must {goal} before {threat}.`;
  return text
    .replace('{person}', person)
    .replace('{place}', pick(random, places))
    .replace('{goal}', pick(random, goals))
    .replace('{threat}', pick(random, threats));
}

export const taglineOf = (seed: number, title: TitleRecord): string =>
  pick(streamFor(seed, title.type, title.id, 'tagline'), taglines);
