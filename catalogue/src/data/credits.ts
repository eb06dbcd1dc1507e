// Cast and crew, derived on demand. People are drawn from one pool of invented names, and a
// person's id comes from their name, so the same actor turns up across titles.
import { characterRoles, crewJobs, firstNames, lastNames } from './words';
import { chance, int, pick, streamFor, type Random } from './random';
import type { TitleRecord } from './model';

export interface CastMember {
  adult: false;
  gender: number;
  id: number;
  known_for_department: 'Acting';
  name: string;
  original_name: string;
  popularity: number;
  profile_path: null;
  cast_id: number;
  character: string;
  credit_id: string;
  order: number;
}

export interface CrewMember {
  adult: false;
  gender: number;
  id: number;
  known_for_department: string;
  name: string;
  original_name: string;
  popularity: number;
  profile_path: null;
  credit_id: string;
  department: string;
  job: string;
}

export interface CreditsBody {
  id: number;
  cast: CastMember[];
  crew: CrewMember[];
}

interface PersonRef {
  id: number;
  name: string;
  gender: number;
}

function person(random: Random): PersonRef {
  const first = int(random, 0, firstNames.length - 1);
  const last = int(random, 0, lastNames.length - 1);
  return { id: 1000 + first * lastNames.length + last, name: `${firstNames[first]} ${lastNames[last]}`, gender: int(random, 1, 2) };
}

/** Distinct people: a title never lists the same person twice in one role list. */
function people(random: Random, count: number, taken: Set<number>): PersonRef[] {
  const found: PersonRef[] = [];
  for (let guard = 0; found.length < count && guard < count * 20; guard++) {
    const candidate = person(random);
    if (taken.has(candidate.id)) continue;
    taken.add(candidate.id);
    found.push(candidate);
  }
  return found;
}

const creditId = (title: TitleRecord, role: string, index: number) =>
  `${title.type[0]}${title.id.toString(16)}${role}${index.toString(16).padStart(4, '0')}`.padEnd(24, '0');

/** Documentary, news, reality and talk: people appear as themselves. */
const unscripted = [99, 10763, 10764, 10767];

export function creditsOf(seed: number, title: TitleRecord): CreditsBody {
  const random = streamFor(seed, title.type, title.id, 'credits');
  const taken = new Set<number>();
  const playsThemselves = unscripted.includes(title.genreIds[0]!);
  const cast = people(random, int(random, 8, 14), taken).map(
    (p, order): CastMember => ({
      adult: false,
      gender: p.gender,
      id: p.id,
      known_for_department: 'Acting',
      name: p.name,
      original_name: p.name,
      popularity: Math.round(random() * 400) / 10,
      profile_path: null,
      cast_id: order + 1,
      character: playsThemselves ? 'Self' : pick(random, characterRoles),
      credit_id: creditId(title, 'c', order),
      order,
    }),
  );

  // Exactly one Director, sometimes a pair (the product lists the crew whose job is Director).
  const crewTaken = new Set<number>();
  const directors = people(random, chance(random, 0.15) ? 2 : 1, crewTaken);
  const jobs = crewJobs.filter(() => chance(random, 0.75));
  if (!jobs.some(([job]) => job === 'Writer' || job === 'Screenplay')) jobs.unshift(crewJobs[0]!);
  const others = people(random, jobs.length, crewTaken);
  const crew: CrewMember[] = [
    ...directors.map((p) => ({ p, job: 'Director', department: 'Directing' })),
    ...others.map((p, i) => ({ p, job: jobs[i]![0], department: jobs[i]![1] })),
  ].map(({ p, job, department }, index) => ({
    adult: false,
    gender: p.gender,
    id: p.id,
    known_for_department: department,
    name: p.name,
    original_name: p.name,
    popularity: Math.round(random() * 200) / 10,
    profile_path: null,
    credit_id: creditId(title, 'w', index),
    department,
    job,
  }));
  return { id: title.id, cast, crew };
}
