-- The release console (docs/releases.md, "A release owner's day in the console"): a person's
-- token signs in through a one-time link and gets a session cookie. Only SHA-256 hashes of the
-- link's and the session's secrets are kept. Both belong to a token: revoking the token ends them.
ALTER TABLE api_tokens ADD COLUMN person boolean NOT NULL DEFAULT false;

CREATE TABLE console_links (
  secret_hash bytea       PRIMARY KEY CHECK (length(secret_hash) = 32),
  token       text        NOT NULL REFERENCES api_tokens (name),
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);

CREATE TABLE console_sessions (
  secret_hash bytea       PRIMARY KEY CHECK (length(secret_hash) = 32),
  token       text        NOT NULL REFERENCES api_tokens (name),
  -- Sent back by the console in X-Netnet-CSRF with every change (the cookie alone changes nothing).
  csrf        text        NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  ended_at    timestamptz
);
CREATE INDEX console_sessions_by_token ON console_sessions (token);
