// What a signed-in person's token covers, as the API checks it (control-plane/src/api/tokens.ts,
// allows): the console asks nothing of an environment outside it, and lists first what the person
// may act on.
import type { RemoteSummary, Session } from './types';

const ANY = '*';

const covers = (list: string[], item: string) => list.includes(ANY) || list.includes(item);

/** Whether the session may see `environment` (the API answers 403 otherwise). */
export const mayOpen = (session: Session, environment: string) => covers(session.scope.environments, environment) && covers(session.scope.actions, 'status');

/** Whether any of a remote's changes is within the person's scope. */
export const mayActOn = (summary: RemoteSummary) => Object.values(summary.can).some((refused) => refused === null);

/** The remotes the person may act on first, each group in the order given. */
export const ownFirst = (summaries: RemoteSummary[]) => [...summaries.filter(mayActOn), ...summaries.filter((summary) => !mayActOn(summary))];

/** The remotes the person's token names first (all of them for a token of every remote), then the rest. */
export const coveredFirst = (session: Session, remotes: string[]) => [
  ...remotes.filter((remote) => covers(session.scope.remotes, remote)),
  ...remotes.filter((remote) => !covers(session.scope.remotes, remote)),
];
