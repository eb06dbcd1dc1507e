-- QA tokens (docs/releases.md, "QA pins"): each is made by the CLI for a named person and recorded
-- here; the shell's instances honour only tokens recorded for their environment and not revoked,
-- so one can be revoked by itself, without rotating the secret every token is signed with.
CREATE TABLE qa_tokens (
  -- The token's public part: it travels in the token, beside the expiry and the signature.
  id          text        PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{22}$'),
  environment text        NOT NULL,
  made_for    text        NOT NULL CHECK (length(made_for) BETWEEN 1 AND 200),
  created_by  text        NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX qa_tokens_live ON qa_tokens (environment, expires_at) WHERE revoked_at IS NULL;

-- The audit trail names who made or revoked each QA token, as it does for the API's tokens: the
-- function gains a branch for this table (the rest as 003 wrote it).
CREATE OR REPLACE FUNCTION netnet_audit() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
DECLARE
  changed jsonb := CASE WHEN TG_OP = 'DELETE' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END;
  claimed text := nullif(current_setting('netnet.actor', true), '');
  said text := nullif(current_setting('netnet.action', true), '');
  login text := 'role:' || session_user;
BEGIN
  IF TG_TABLE_NAME = 'rollouts' THEN
    INSERT INTO audit (kind, environment, map_version, actor, action, remote, reason, map, role)
    VALUES ('map', changed->>'environment', (changed->>'version')::bigint, coalesce(claimed, login), coalesce(said, lower(TG_OP)),
            nullif(current_setting('netnet.remote', true), ''), nullif(current_setting('netnet.reason', true), ''), changed->'map', session_user);
  ELSIF TG_TABLE_NAME = 'releases' THEN
    -- Who published it is the row's own record; who removed or changed it, the session's.
    INSERT INTO audit (kind, actor, action, remote, subject, detail, role)
    VALUES ('release', coalesce(CASE WHEN TG_OP = 'INSERT' THEN changed->>'published_by' END, claimed, login),
            coalesce(said, CASE TG_OP WHEN 'INSERT' THEN 'publish' WHEN 'DELETE' THEN 'remove' ELSE 'update' END),
            changed->>'remote', changed->>'version', changed, session_user);
  ELSIF TG_TABLE_NAME = 'qa_tokens' THEN
    IF TG_OP = 'UPDATE' AND OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL THEN
      said := coalesce(said, 'revoke');
    END IF;
    INSERT INTO audit (kind, environment, actor, action, subject, detail, role)
    VALUES ('token', changed->>'environment', coalesce(CASE WHEN TG_OP = 'INSERT' THEN changed->>'created_by' END, claimed, login),
            coalesce(said, CASE TG_OP WHEN 'INSERT' THEN 'create' WHEN 'DELETE' THEN 'delete' ELSE 'update' END),
            'qa-token ' || (changed->>'id'), changed, session_user);
  ELSE
    IF TG_OP = 'UPDATE' THEN
      -- A token's last use is bookkeeping, not a change of what it may do.
      IF to_jsonb(OLD) - 'last_used_at' = changed - 'last_used_at' THEN
        RETURN NULL;
      END IF;
      IF OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL THEN
        said := coalesce(said, 'revoke');
      END IF;
    END IF;
    INSERT INTO audit (kind, actor, action, subject, detail, role)
    VALUES ('token', coalesce(CASE WHEN TG_OP = 'INSERT' THEN changed->>'created_by' END, claimed, login),
            coalesce(said, CASE TG_OP WHEN 'INSERT' THEN 'create' WHEN 'DELETE' THEN 'delete' ELSE 'update' END),
            changed->>'name', changed - 'secret_hash', session_user);
  END IF;
  RETURN NULL;
END $$;
-- Replacing a function resets its settings: its search path again (003 says why).
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION netnet_audit() SET search_path = %I, pg_temp', current_schema());
END $$;
CREATE TRIGGER audit_change AFTER INSERT OR UPDATE OR DELETE ON qa_tokens FOR EACH ROW EXECUTE FUNCTION netnet_audit();

-- Every instance hears of a QA token made or revoked at once, whoever changed the table.
CREATE FUNCTION netnet_qa_tokens_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('netnet_qa_tokens', CASE WHEN TG_OP = 'DELETE' THEN OLD.environment ELSE NEW.environment END);
  RETURN NULL;
END $$;
CREATE TRIGGER notify_change AFTER INSERT OR UPDATE OR DELETE ON qa_tokens FOR EACH ROW EXECUTE FUNCTION netnet_qa_tokens_changed();

-- Instances read which tokens stand; the API reads them for its status; the CLI makes, lists and
-- revokes them.
GRANT SELECT (id, environment, expires_at, revoked_at) ON qa_tokens TO netnet_instance;
GRANT SELECT ON qa_tokens TO netnet_api;
GRANT SELECT, INSERT ON qa_tokens TO netnet_cli;
GRANT UPDATE (revoked_at) ON qa_tokens TO netnet_cli;
