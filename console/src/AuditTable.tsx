// An audit trail: who changed what, when, why, and what the remote served before and after.
import { DataTable, type Column } from './DataTable';
import { planChange, when } from './format';
import type { AuditEntry } from './types';

const WHEN: Column<AuditEntry> = { header: 'When', cell: (entry) => when(entry.at) };
const WHO: Column<AuditEntry> = { header: 'Who', cell: (entry) => entry.actor };
const CHANGE: Column<AuditEntry> = { header: 'Change', cell: (entry) => `${entry.action} (map v${entry.mapVersion})` };
const REMOTE: Column<AuditEntry> = { header: 'Remote', cell: (entry) => entry.remote ?? 'every remote' };
const MADE: Column<AuditEntry> = {
  header: 'What it made',
  cell: (entry) => (entry.remote && (entry.before !== null || entry.plan !== null) ? planChange(entry.before, entry.plan) : '–'),
};
const WHY: Column<AuditEntry> = { header: 'Why', cell: (entry) => entry.reason ?? '–' };
const WITH_REMOTE = [WHEN, WHO, CHANGE, REMOTE, MADE, WHY];
const OF_ONE_REMOTE = [WHEN, WHO, CHANGE, MADE, WHY];

export function AuditTable({ entries, caption, showRemote = true }: { entries: AuditEntry[]; caption: string; showRemote?: boolean }) {
  return (
    <DataTable
      className="audit"
      caption={caption}
      columns={showRemote ? WITH_REMOTE : OF_ONE_REMOTE}
      rows={entries}
      rowKey={(entry) => entry.id}
      empty="No change recorded."
    />
  );
}
