// Every remote of an environment in one view: what it serves, the pins allowed, the guard's
// verdict and its evidence, a small chart of each release's failure rate, and the actions. The
// remotes the person may act on come first: those are what they came for.
import { Sparkline } from './Sparkline';
import { Actions } from './Actions';
import type { OpenChange } from './ChangeDialog';
import { percent } from './format';
import { ownFirst } from './scope';
import type { Overview, RemoteSummary } from './types';
import { VerdictBlock } from './VerdictBlock';

function RemoteCard({ environment, summary, onChange }: { environment: string; summary: RemoteSummary; onChange: OpenChange }) {
  const { remote, plan } = summary;
  return (
    <li className="card">
      <h3>
        <a href={`#/${environment}/remote/${remote}`}>{remote}</a>
      </h3>
      <dl className="facts">
        <dt>Stable</dt>
        <dd>{plan?.stable ?? 'its own build'}</dd>
        <dt>Canary</dt>
        <dd>{plan?.canary ? `${plan.canary.version} at ${plan.canary.percent} %` : 'none'}</dd>
        <dt>Pins allowed</dt>
        <dd>{summary.served.pinnable.length ? summary.served.pinnable.join(', ') : 'none'}</dd>
      </dl>
      <VerdictBlock verdict={summary.verdict} />
      <div className="sparks">
        {summary.failureRates.map((series) => (
          <div key={`${series.release}${series.channel}`} className="spark-row">
            <span>
              {series.release} ({series.channel}): {percent(series.totals.rate)} of {series.totals.sessions}
            </span>
            <Sparkline label={`Failure rate of ${remote} ${series.release} (${series.channel}) per minute over the last hour: ${percent(series.totals.rate)} of ${series.totals.sessions} sessions`} minutes={series.minutes} />
          </div>
        ))}
      </div>
      <Actions remote={remote} plan={plan} published={summary.published} can={summary.can} onChange={onChange} />
    </li>
  );
}

export function OverviewPage({ data, onChange }: { data: Overview; onChange: OpenChange }) {
  const { pinPolicy } = data;
  return (
    <>
      <h2>Every remote in {data.environment}</h2>
      <section className="card pins" aria-labelledby="pins-title">
        <h3 id="pins-title">Pin policy</h3>
        <p>
          {pinPolicy.production ? 'Production: QA pins need a QA token.' : 'Not production: any browser may pin a pinnable release.'}{' '}
          {pinPolicy.pinRolledBack ? 'Rolled-back releases stay pinnable.' : 'Rolled-back releases cannot be pinned.'}
        </p>
        <button type="button" disabled={data.canChangePins !== null} aria-describedby={data.canChangePins ? 'pins-reason' : undefined} onClick={(event) => onChange({ kind: 'pins', policy: pinPolicy }, event.currentTarget)}>
          Change the pin policy
        </button>
        {data.canChangePins && (
          <p id="pins-reason" className="reason">
            {data.canChangePins}
          </p>
        )}
      </section>
      <ul className="cards">
        {ownFirst(data.remotes).map((summary) => (
          <RemoteCard key={summary.remote} environment={data.environment} summary={summary} onChange={onChange} />
        ))}
      </ul>
    </>
  );
}
