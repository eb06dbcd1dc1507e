import type { PageModules } from '@netnet/shared';

// This remote's pages, as the page table in shared assigns them: the type fails the build if one
// is missing or is not a PageModule. The shell loads them through the container's exposes; the
// standalone page (../bootstrap.tsx) loads them from here.
export const pageModules = {
  Search: () => import('./Search'),
} satisfies PageModules<'remote-search'>;
