// An audit trail: who changed what, when, why, and what the remote served before and after.
import { planChange, when } from './format';
import type { AuditEntry } from './types';

export function AuditTable({ entries, caption, showRemote = true }: { entries: AuditEntry[]; caption: string; showRemote?: boolean }) {
  return (
    <table className="audit">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Change</th>
            {showRemote && <th scope="col">Remote</th>}
            <th scope="col">What it made</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {entries.length === 0 ? (
            <tr>
              <td colSpan={showRemote ? 6 : 5}>No change recorded.</td>
            </tr>
          ) : (
            entries.map((entry) => (
              <tr key={entry.id}>
                <td>{when(entry.at)}</td>
                <td>{entry.actor}</td>
                <td>
                  {entry.action} (map v{entry.mapVersion})
                </td>
                {showRemote && <td>{entry.remote ?? 'every remote'}</td>}
                <td>{entry.remote ? (entry.before !== null || entry.plan !== null ? planChange(entry.before, entry.plan) : '–') : '–'}</td>
                <td>{entry.reason ?? '–'}</td>
              </tr>
            ))
          )}
        </tbody>
    </table>
  );
}
