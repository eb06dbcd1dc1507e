-- What the site shares, in one store (docs/store.md). Every instance of the
-- shell's server reads it; the release and rollout commands and the guard write it.

-- Published releases and the hashes of their entry files, which the map hands the browser so it
-- loads a release only as published. Immutable: a version is registered once.
CREATE TABLE releases (
  remote       text        NOT NULL,
  version      text        NOT NULL,
  integrity    jsonb,
  published_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (remote, version)
);

-- Each environment's rollout map: per remote the stable, the canary and its percent, the history
-- of stables and rolled-back versions, the QA pin policy, and the guard's recent decisions.
-- `version` grows by one with every change; every write is a compare-and-set on it.
CREATE TABLE rollouts (
  environment text        PRIMARY KEY,
  version     bigint      NOT NULL CHECK (version > 0),
  map         jsonb       NOT NULL,
  changed_at  timestamptz NOT NULL DEFAULT now()
);

-- Every change of a map: who or what made it, when, why, and the map it made.
CREATE TABLE audit (
  id          bigserial   PRIMARY KEY,
  environment text        NOT NULL,
  map_version bigint      NOT NULL,
  at          timestamptz NOT NULL DEFAULT now(),
  actor       text        NOT NULL,
  action      text        NOT NULL,
  remote      text,
  reason      text,
  map         jsonb       NOT NULL
);
CREATE INDEX audit_by_environment ON audit (environment, id);

-- Release health: exact counts per release, channel and minute. `metric` is `outcome:<outcome>`
-- (one per session) or `lcp:<bucket>` (one per LCP sample, in the histogram's buckets).
CREATE TABLE health_counts (
  environment text   NOT NULL,
  minute      bigint NOT NULL,
  remote      text   NOT NULL,
  release     text   NOT NULL,
  channel     text   NOT NULL,
  metric      text   NOT NULL,
  count       bigint NOT NULL,
  PRIMARY KEY (environment, minute, remote, release, channel, metric)
);

-- The guard's lease: one holder per environment; `fence` grows whenever the lease changes hands,
-- and every write the guard makes checks it in the same statement.
CREATE TABLE guard_leases (
  environment text        PRIMARY KEY,
  holder      text        NOT NULL,
  fence       bigint      NOT NULL,
  expires_at  timestamptz NOT NULL
);
