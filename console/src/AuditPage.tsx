// The audit trail of an environment, filtered by remote and by actor (kept in the address, so a
// filtered view can be linked).
import { AuditTable } from './AuditTable';
import type { AuditView } from './types';

export function AuditPage({ data, remotes, onFilter }: { data: AuditView; remotes: string[]; onFilter(filter: { remote: string; actor: string }): void }) {
  const remote = data.remote ?? '';
  const actor = data.actor ?? '';
  return (
    <>
      <h2>Audit trail of {data.environment}</h2>
      <form className="filters" onSubmit={(event) => event.preventDefault()}>
        <label>
          Remote
          <select value={remote} onChange={(event) => onFilter({ remote: event.target.value, actor })}>
            <option value="">All remotes</option>
            {remotes.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
        <label>
          Actor
          <select value={actor} onChange={(event) => onFilter({ remote, actor: event.target.value })}>
            <option value="">Everyone</option>
            {data.actors.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
      </form>
      <AuditTable entries={data.entries} caption={`Changes in ${data.environment}${remote ? ` to ${remote}` : ''}${actor ? ` by ${actor}` : ''}, newest first`} />
    </>
  );
}
