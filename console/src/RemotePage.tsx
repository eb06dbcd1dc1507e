// One remote in one environment: what it serves and the guard's verdict, the hour's chart with
// every decision and change marked, the releases published, and its audit trail. The chart comes
// first: the tables below it follow in a render of their own (deferred), so new figures reach the
// screen without waiting for a hundred table cells.
import { memo, useDeferredValue } from 'react';
import { Actions } from './Actions';
import { AuditTable } from './AuditTable';
import type { OpenChange } from './ChangeDialog';
import { DataTable, type Column } from './DataTable';
import { HourChart } from './HourChart';
import { bytes, describePlan, when } from './format';
import { VerdictBlock } from './VerdictBlock';
import type { RemoteView } from './types';

export function RemotePage({ data, onChange }: { data: RemoteView; onChange: OpenChange }) {
  const published = [...data.releases].map((release) => release.version).reverse();
  const tables = useDeferredValue<RemoteView | null>(data, null);
  return (
    <>
      <h2>
        {data.remote} in {data.environment}
      </h2>
      <section className="card" aria-label="What it serves">
        <p>Serves: {describePlan(data.plan)}.</p>
        <VerdictBlock verdict={data.verdict} />
        <Actions remote={data.remote} plan={data.plan} published={published} can={data.can} onChange={onChange} />
      </section>
      <HourChart remote={data.remote} {...data.chart} />
      {tables ? <Tables data={tables} /> : <p>Loading the releases and the audit trail…</p>}
    </>
  );
}

type Release = RemoteView['releases'][number];
const RELEASE_COLUMNS: Column<Release>[] = [
  { header: 'Version', cell: (release) => release.version },
  { header: 'Published by', cell: (release) => release.publishedBy },
  { header: 'When', cell: (release) => when(release.publishedAt) },
  { header: 'Size', cell: (release) => `${bytes(release.bytes)}${release.files !== null ? `, ${release.files} files` : ''}` },
  { header: 'Integrity', cell: (release) => (release.verified ? 'verified' : release.integrity), className: (release) => (release.verified ? 'ok' : 'refused') },
];

// Memoised: a new render of the page with the same deferred figures leaves the tables alone.
const Tables = memo(function Tables({ data }: { data: RemoteView }) {
  return (
    <>
      <section aria-labelledby="releases-title">
        <h3 id="releases-title">Releases published</h3>
        <DataTable
          caption={`Releases of ${data.remote}, newest first`}
          columns={RELEASE_COLUMNS}
          rows={data.releases}
          rowKey={(release) => release.version}
          empty="Nothing published yet."
        />
      </section>
      <section aria-labelledby="trail-title">
        <h3 id="trail-title">Audit trail of {data.remote}</h3>
        <AuditTable entries={data.audit} caption={`Changes to ${data.remote} in ${data.environment}, newest first`} showRemote={false} />
      </section>
    </>
  );
});
