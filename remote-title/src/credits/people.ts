import type { Credits } from '@netnet/shared';

// The Cast and Director lines (docs/product.md#cast-and-director): directors are the crew whose job is Director.

export const COLLAPSED_NAMES = 4;
export const EXPANDED_NAMES = 7;

const distinct = (names: string[]): string[] => [...new Set(names.map((n) => n.trim()).filter(Boolean))];

export const castNames = (credits: Pick<Credits, 'cast'>): string[] => distinct(credits.cast.map((p) => p.name));

export const directorNames = (credits: Pick<Credits, 'crew'>): string[] =>
  distinct(credits.crew.filter((p) => p.job === 'Director').map((p) => p.name));

export const visibleNames = (names: string[], expanded: boolean): string[] =>
  names.slice(0, expanded ? EXPANDED_NAMES : COLLAPSED_NAMES);

export const canExpand = (names: string[]): boolean => names.length > COLLAPSED_NAMES;
