-- The control-plane API's tokens (docs/pipelines.md): one per team or
-- pipeline, scoped to remotes, environments and actions. Only the SHA-256 of the token's secret is
-- kept: the token itself is printed once, when it is made. A name is never reused (the audit trail
-- names changes by it), so a revoked token keeps its row.
CREATE TABLE api_tokens (
  name         text        PRIMARY KEY CHECK (name ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
  secret_hash  bytea       NOT NULL CHECK (length(secret_hash) = 32),
  remotes      text[]      NOT NULL,
  environments text[]      NOT NULL,
  actions      text[]      NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   text        NOT NULL,
  revoked_at   timestamptz,
  last_used_at timestamptz
);

-- Who published a release: the token of the API call (NULL: published in a checkout with
-- `npm run release`, or registered from the deploy folder).
ALTER TABLE releases ADD COLUMN published_by text;
