// Invented word lists for titles, overviews and people. Written for this project: no real
// titles, no third-party data. A few accented and '&' words keep Unicode and escaping honest.

export const adjectives = [
  'Silent', 'Broken', 'Hidden', 'Golden', 'Last', 'Crimson', 'Distant', 'Electric', 'Hollow', 'Wild',
  'Burning', 'Frozen', 'Lonely', 'Midnight', 'Secret', 'Velvet', 'Paper', 'Iron', 'Glass', 'Quiet',
  'Restless', 'Shattered', 'Bright', 'Endless', 'Lucky', 'Savage', 'Sleeping', 'Stolen', 'Wandering', 'Violet',
  'Northern', 'Sunken', 'Fading', 'Crooked', 'Gentle', 'Reckless', 'Borrowed', 'Falling', 'Hungry', 'Little',
  'Second', 'Salted', 'Painted', 'Forgotten', 'Neon', 'Silver', 'Scarlet', 'Brave', 'Fearless', 'Bitter',
] as const;

export const nouns = [
  'Harbor', 'Signal', 'Garden', 'Echo', 'Lantern', 'River', 'Horizon', 'Mirror', 'Orchard', 'Compass',
  'Tide', 'Crown', 'Winter', 'Summer', 'Shadow', 'Frontier', 'Kingdom', 'Letter', 'Island', 'Promise',
  'Machine', 'Storm', 'Harvest', 'Witness', 'Voyage', 'Circle', 'Canyon', 'Archive', 'Lighthouse', 'Meridian',
  'Orbit', 'Parade', 'Reckoning', 'Sanctuary', 'Ember', 'Tower', 'Station', 'Bridge', 'Engine', 'Feather',
  'Anthem', 'Labyrinth', 'Monsoon', 'Outpost', 'Ritual', 'Spiral', 'Threshold', 'Undertow', 'Vessel', 'Wake',
  'Café', 'Rendezvous', 'Déjà Vu', 'Ballad', 'Carousel', 'Cipher', 'Daybreak', 'Fable', 'Gambit', 'Masquerade',
] as const;

export const pluralNouns = [
  'Lanterns', 'Strangers', 'Wolves', 'Saints', 'Rivers', 'Thieves', 'Giants', 'Ghosts', 'Sisters', 'Brothers',
  'Kings', 'Sparrows', 'Days', 'Nights', 'Stars', 'Doors', 'Bells', 'Summers', 'Letters', 'Islands',
] as const;

export const numbers = ['Two', 'Three', 'Four', 'Five', 'Seven', 'Nine', 'Twelve', 'A Hundred', 'A Thousand'] as const;

/** Invented places: plausible, not on any map we know of. */
export const places = [
  'Marrow Bay', 'Kestrel Point', 'Ashford Hollow', 'Port Calloway', 'Vallée Noire', 'Östermark', 'Peña Alta',
  'Saint-Évrard', 'Lake Wendell', 'Copperfield', 'Thornbury', 'New Halden', 'Bramblewood', 'Cape Irvine',
  'Silverton Flats', 'Oldcastle', 'Greyhaven', 'Dunmore', 'Redwater', 'Falkirk Row', 'Mirró', 'Zürichberg',
  'Eastmere', 'Larkspur', 'Hollin Ridge', 'Sundial Heights', 'Quill Harbor', 'Westbrook', 'Nordby', 'Calder Vale',
] as const;

export const subtitles = [
  'The Return', 'Rising', 'Part II', 'Reborn', 'The Last Chapter', 'Homecoming', 'A New Dawn', 'Legacy',
  'The Long Night', 'Origins', 'Resurrection', 'Endgame',
] as const;

/** Extra nouns per genre, so a horror title sounds like one. Keyed by TMDB genre id. */
export const genreNouns: Record<number, readonly string[]> = {
  28: ['Strike', 'Protocol', 'Extraction', 'Velocity', 'Crossfire', 'Payload', 'Firewall', 'Ambush'],
  12: ['Expedition', 'Treasure', 'Map', 'Jungle', 'Quest', 'Summit', 'Caravan', 'Odyssey'],
  16: ['Dragon', 'Robot', 'Kitten', 'Balloon', 'Toybox', 'Moonbeam', 'Snowflake', 'Pebble'],
  35: ['Wedding', 'Roommate', 'Road Trip', 'Mix-Up', 'Reunion', 'Bachelor', 'Neighbours', 'Vacation'],
  80: ['Heist', 'Alibi', 'Syndicate', 'Confession', 'Ransom', 'Verdict', 'Racket', 'Informant'],
  99: ['Story', 'Truth', 'Making', 'Life', 'Secrets', 'Voices', 'Journey', 'Century'],
  18: ['Inheritance', 'Homecoming', 'Farewell', 'Daughter', 'Son', 'Marriage', 'Season', 'Silence'],
  10751: ['Puppy', 'Holiday', 'Treehouse', 'Picnic', 'Camp', 'Pony', 'Birthday', 'Snow Day'],
  14: ['Sorcerer', 'Relic', 'Enchantment', 'Prophecy', 'Griffin', 'Realm', 'Spellbook', 'Oracle'],
  36: ['Empire', 'Dynasty', 'Revolution', 'Treaty', 'Crusade', 'Armada', 'Chronicle', 'Regent'],
  27: ['Curse', 'Séance', 'Crawlspace', 'Hex', 'Possession', 'Ouija', 'Basement', 'Howl'],
  10402: ['Encore', 'Chorus', 'Rhapsody', 'Mixtape', 'Backstage', 'Bassline', 'Serenade', 'Tour'],
  9648: ['Riddle', 'Disappearance', 'Clue', 'Enigma', 'Locked Room', 'Vanishing', 'Puzzle', 'Whisper'],
  10749: ['Kiss', 'Sweetheart', 'Valentine', 'Honeymoon', 'Love Letter', 'Crush', 'Proposal', 'Affair'],
  878: ['Android', 'Nebula', 'Colony', 'Singularity', 'Wormhole', 'Starship', 'Clone', 'Protocol Zero'],
  53: ['Deadline', 'Pursuit', 'Trap', 'Blackout', 'Hostage', 'Countdown', 'Stalker', 'Double Cross'],
  10752: ['Battalion', 'Trench', 'Siege', 'Frontline', 'Armistice', 'Squadron', 'Resistance', 'Bunker'],
  37: ['Outlaw', 'Sheriff', 'Stagecoach', 'Gunslinger', 'Ranch', 'Bounty', 'Saloon', 'Rustler'],
  10759: ['Mission', 'Raid', 'Quest', 'Rescue', 'Chase', 'Expedition', 'Vanguard', 'Getaway'],
  10762: ['Friends', 'Adventures', 'Club', 'Academy', 'Playground', 'Crew', 'Explorers', 'Patrol'],
  10763: ['Report', 'Tonight', 'Briefing', 'Dispatch', 'Headlines', 'Bulletin', 'Newsroom', 'Live'],
  10764: ['Bake-Off', 'Rescue', 'Makeover', 'Challenge', 'Island', 'House Hunters', 'Showdown', 'Dating'],
  10765: ['Portal', 'Multiverse', 'Dragon', 'Rift', 'Android', 'Kingdom', 'Timeline', 'Starfall'],
  10766: ['Hearts', 'Vows', 'Fortunes', 'Passions', 'Secrets', 'Heirs', 'Scandal', 'Tomorrow'],
  10767: ['Couch', 'Hour', 'Late Show', 'Table', 'Conversation', 'Studio', 'Lounge', 'Podcast'],
  10768: ['Cabinet', 'Senate', 'Campaign', 'Embassy', 'Coup', 'Ministry', 'Frontline', 'Treaty'],
};

export const firstNames = [
  'Ada', 'Bruno', 'Carmen', 'Dmitri', 'Elena', 'Felix', 'Greta', 'Hugo', 'Ines', 'Jonah',
  'Kaia', 'Leon', 'Maya', 'Nikolai', 'Olive', 'Pablo', 'Quinn', 'Rosa', 'Samir', 'Tessa',
  'Umar', 'Vera', 'Wes', 'Ximena', 'Yusuf', 'Zoë', 'Amara', 'Benedikt', 'Chloé', 'Dario',
  'Eun-ji', 'Farah', 'Gideon', 'Hana', 'Ivo', 'Jasmin', 'Kenji', 'Lucía', 'Marek', 'Noor',
  'Oskar', 'Priya', 'Rafael', 'Sofía', 'Tomás', 'Uma', 'Viktor', 'Wanda', 'Yara', 'Zane',
] as const;

export const lastNames = [
  'Abernathy', 'Bergström', 'Castellano', 'Delacroix', 'Eriksen', 'Fairbanks', 'Goldberg', 'Hollis', 'Ibáñez', 'Jovanović',
  'Kowalski', 'Lindqvist', 'Moreau', 'Nakamura', 'Okafor', 'Petrov', 'Quintero', 'Ramírez', 'Sørensen', 'Thornton',
  'Underwood', 'Valdés', 'Whitaker', 'Xu', 'Yamamoto', 'Zielinski', 'Achebe', 'Brennan', 'Costa', 'Dubois',
  'Esposito', 'Fitzgerald', 'Grünewald', 'Hartmann', 'Iyer', 'Jensen', 'Kaur', 'Lombardi', 'Mendes', 'Novak',
  'Oyelaran', 'Pereira', 'Rinaldi', 'Schreiber', 'Tanaka', 'Ueda', 'Varga', 'Weller', 'Yilmaz', 'Zamora',
] as const;

export const occupations = [
  'a retired detective', 'a young cartographer', 'a struggling musician', 'a small-town nurse', 'a disgraced chef',
  'an ambitious reporter', 'a reluctant heir', 'a night-shift cab driver', 'a former astronaut', 'a schoolteacher',
  'a jewel thief', 'a lighthouse keeper', 'a grieving widower', 'a teenage inventor', 'a rookie lawyer',
  'a marine biologist', 'a wedding planner', 'a border guard', 'a stand-up comedian', 'an exiled princess',
] as const;

export const incidents = [
  'discovers a letter that should not exist', 'inherits a crumbling hotel', 'witnesses a crime nobody believes',
  'wakes up with no memory of the last year', 'receives a mysterious invitation', 'loses everything in one night',
  'finds a door that was never there', 'is mistaken for someone else', 'returns home after twenty years',
  'uncovers a secret buried beneath the town', 'agrees to one last job', 'picks up a signal from deep space',
  'is drafted into a war no one understands', 'stumbles into a competition with impossible stakes',
] as const;

export const goals = [
  'find the truth', 'save the family business', 'get back to the people they love', 'win back a lost friend',
  'outrun the past', 'protect a stranger', 'solve the mystery', 'survive until morning', 'keep a promise',
  'stop a conspiracy', 'make peace with an old rival', 'prove their innocence',
] as const;

export const threats = [
  'the storm reaches the coast', 'the last train leaves', 'an old enemy catches up', 'the secret gets out',
  'the town turns against them', 'time runs out', 'the winter closes every road', 'the truth destroys them',
  'the festival ends', 'a powerful family intervenes',
] as const;

export const taglines = [
  'Some doors should stay closed.', 'Every ending is a beginning.', 'Trust no one.', 'The past never stays buried.',
  'One night changes everything.', 'Home is where the heart breaks.', 'Run.', 'Love is the longest journey.',
  'Nothing is what it seems.', 'The truth has a price.', 'Laugh now, cry later.', 'Legends are made, not born.',
] as const;

/** Crew jobs besides Director, with their TMDB department. */
export const crewJobs: ReadonlyArray<readonly [job: string, department: string]> = [
  ['Writer', 'Writing'],
  ['Screenplay', 'Writing'],
  ['Producer', 'Production'],
  ['Executive Producer', 'Production'],
  ['Original Music Composer', 'Sound'],
  ['Director of Photography', 'Camera'],
  ['Editor', 'Editing'],
  ['Casting', 'Production'],
];

export const characterRoles = [
  'Detective', 'Mother', 'Father', 'The Stranger', 'Captain', 'Doctor', 'Bartender', 'Mayor', 'Young Girl',
  'Professor', 'Driver', 'Neighbour', 'Agent', 'Grandmother', 'Pilot', 'Narrator (voice)', 'Officer', 'Singer',
] as const;
