-- Who may write what (docs/deploy.md, "Roles"). Shell instances, the control-plane API and the
-- CLI connect as roles of their own; the database itself writes the audit row of every change of
-- a map, a release or a token, in the same transaction, whoever makes it.

-- The roles, without login: the embedded store lets its own processes log in as them (peer); an
-- operator of another PostgreSQL makes them, or logins that are members of them.
DO $$
DECLARE
  name text;
BEGIN
  FOREACH name IN ARRAY ARRAY['netnet_instance', 'netnet_api', 'netnet_cli'] LOOP
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = name) THEN
      BEGIN
        EXECUTE format('CREATE ROLE %I NOLOGIN', name);
      EXCEPTION WHEN insufficient_privilege THEN
        RAISE EXCEPTION 'the role % does not exist and this login may not create it: create netnet_instance, netnet_api and netnet_cli first (docs/deploy.md, "Roles")', name;
      END;
    END IF;
  END LOOP;
END $$;

-- The audit trail holds every kind of change: a map (as before), a release (published, removed) or
-- a token (created, revoked). `role` is the login the database saw; `actor` is who the client
-- says acted (a person, a token, the guard), from the row itself or the session's netnet.actor.
ALTER TABLE audit ADD COLUMN kind text NOT NULL DEFAULT 'map' CHECK (kind IN ('map', 'release', 'token'));
ALTER TABLE audit ADD COLUMN role text;
UPDATE audit SET role = 'unknown (before roles)';
ALTER TABLE audit ALTER COLUMN role SET NOT NULL, ALTER COLUMN role SET DEFAULT session_user;
ALTER TABLE audit ADD COLUMN subject text;
ALTER TABLE audit ADD COLUMN detail jsonb;
ALTER TABLE audit ALTER COLUMN environment DROP NOT NULL, ALTER COLUMN map_version DROP NOT NULL, ALTER COLUMN map DROP NOT NULL;
ALTER TABLE audit ADD CONSTRAINT audit_map_row CHECK (kind <> 'map' OR (environment IS NOT NULL AND map_version IS NOT NULL AND map IS NOT NULL));

-- Calls the API refused (401, 403): the token name tried (never its secret) and the address.
CREATE TABLE refused_calls (
  id         bigserial   PRIMARY KEY,
  at         timestamptz NOT NULL DEFAULT now(),
  status     smallint    NOT NULL CHECK (status IN (401, 403)),
  token_name text,
  address    text        NOT NULL,
  method     text        NOT NULL,
  path       text        NOT NULL,
  reason     text
);
CREATE INDEX refused_calls_by_time ON refused_calls (at);

-- Writes the audit row of a change. SECURITY DEFINER: no client role may insert into audit itself.
CREATE FUNCTION netnet_audit() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
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

CREATE TRIGGER audit_change AFTER INSERT OR UPDATE OR DELETE ON rollouts FOR EACH ROW EXECUTE FUNCTION netnet_audit();
CREATE TRIGGER audit_change AFTER INSERT OR UPDATE OR DELETE ON releases FOR EACH ROW EXECUTE FUNCTION netnet_audit();
CREATE TRIGGER audit_change AFTER INSERT OR UPDATE OR DELETE ON api_tokens FOR EACH ROW EXECUTE FUNCTION netnet_audit();

-- The one write of a map an instance may make: the guard rolling back a canary, while it holds the
-- environment's lease under `fence`, and only the canary it judged (stable, version and percent as
-- the map still has them). What it writes is worked out here, not taken from the caller: the
-- canary leaves the map, its version joins rolledBack, the guard's entry joins guardHistory.
-- Returns 'rolled-back', 'lease-lost' or 'outdated' (the map moved on: nothing written).
CREATE FUNCTION netnet_guard_rollback(
  p_environment text, p_holder text, p_fence bigint, p_remote text, p_stable text, p_version text,
  p_percent numeric, p_at text, p_reason text, p_keep integer
) RETURNS text LANGUAGE plpgsql SECURITY DEFINER AS $$
DECLARE
  current_map jsonb;
  plan jsonb;
  rolled_back jsonb;
  history jsonb;
  written bigint;
BEGIN
  IF p_holder IS NULL OR length(p_holder) > 200 OR p_reason IS NULL OR length(p_reason) > 4000 OR p_at IS NULL OR length(p_at) > 40
     OR p_keep IS NULL OR p_keep < 1 OR p_keep > 1000 THEN
    RAISE EXCEPTION 'netnet_guard_rollback: an argument is missing or out of bounds';
  END IF;
  PERFORM 1 FROM guard_leases
    WHERE environment = p_environment AND holder = p_holder AND fence = p_fence AND expires_at > now() FOR SHARE;
  IF NOT FOUND THEN
    RETURN 'lease-lost';
  END IF;
  SELECT map INTO current_map FROM rollouts WHERE environment = p_environment FOR UPDATE;
  plan := current_map->'remotes'->p_remote;
  IF plan IS NULL OR plan->>'stable' IS DISTINCT FROM p_stable OR plan->'canary'->>'version' IS DISTINCT FROM p_version
     OR (plan->'canary'->>'percent')::numeric IS DISTINCT FROM p_percent THEN
    RETURN 'outdated';
  END IF;
  SELECT coalesce(jsonb_agg(v), '[]'::jsonb) INTO rolled_back
    FROM jsonb_array_elements(coalesce(plan->'rolledBack', '[]'::jsonb)) AS v WHERE v <> to_jsonb(p_version);
  plan := (plan - 'canary') || jsonb_build_object('rolledBack', rolled_back || to_jsonb(p_version));
  history := coalesce(current_map->'guardHistory', '[]'::jsonb) || jsonb_build_array(jsonb_build_object(
    'at', p_at, 'remote', p_remote, 'action', 'rollback', 'version', p_version, 'stable', p_stable, 'from', p_percent, 'reason', p_reason));
  SELECT coalesce(jsonb_agg(e ORDER BY i), '[]'::jsonb) INTO history
    FROM jsonb_array_elements(history) WITH ORDINALITY AS t(e, i) WHERE i > jsonb_array_length(history) - p_keep;
  PERFORM set_config('netnet.actor', 'guard@' || p_holder, true), set_config('netnet.action', 'rollback', true),
          set_config('netnet.remote', p_remote, true), set_config('netnet.reason', p_reason, true);
  UPDATE rollouts SET map = jsonb_set(jsonb_set(current_map, ARRAY['remotes', p_remote], plan), '{guardHistory}', history),
                      version = version + 1, changed_at = now()
    WHERE environment = p_environment RETURNING version INTO written;
  PERFORM pg_notify('netnet_rollout', p_environment || ' ' || written);
  RETURN 'rolled-back';
END $$;

-- A SECURITY DEFINER function must not find a caller's temporary table first: its search path is
-- this schema, then pg_temp.
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION netnet_audit() SET search_path = %I, pg_temp', current_schema());
  EXECUTE format('ALTER FUNCTION netnet_guard_rollback(text, text, bigint, text, text, text, numeric, text, text, integer) SET search_path = %I, pg_temp', current_schema());
END $$;
REVOKE ALL ON FUNCTION netnet_audit() FROM PUBLIC;
REVOKE ALL ON FUNCTION netnet_guard_rollback(text, text, bigint, text, text, text, numeric, text, text, integer) FROM PUBLIC;

-- What each role may do (the owner, which runs the migrations, may do everything).
-- Instances: read the map and the releases, add release-health counts (and, as the lease holder,
-- drop old ones), hold the guard's lease, roll a canary back through the function above.
GRANT SELECT ON schema_migrations, rollouts, releases TO netnet_instance, netnet_api, netnet_cli;
GRANT SELECT, INSERT, UPDATE, DELETE ON health_counts TO netnet_instance;
GRANT SELECT, INSERT, UPDATE ON guard_leases TO netnet_instance;
GRANT EXECUTE ON FUNCTION netnet_guard_rollback(text, text, bigint, text, text, text, numeric, text, text, integer) TO netnet_instance, netnet_cli;
-- The API: change maps and publish releases for its tokens' calls, read the trail and the health
-- for status, check tokens (their hashes) and note their last use, record refused calls.
GRANT INSERT, UPDATE ON rollouts TO netnet_api;
GRANT INSERT ON releases TO netnet_api;
GRANT SELECT ON audit, health_counts TO netnet_api;
GRANT SELECT ON api_tokens TO netnet_api;
GRANT UPDATE (last_used_at) ON api_tokens TO netnet_api;
GRANT INSERT ON refused_calls TO netnet_api;
GRANT USAGE ON SEQUENCE refused_calls_id_seq TO netnet_api;
-- The CLI (release, rollout, tokens; a guard job): everything the commands do, but never a
-- token's hash.
GRANT INSERT, UPDATE ON rollouts TO netnet_cli;
GRANT INSERT, DELETE ON releases TO netnet_cli;
GRANT SELECT ON audit, refused_calls TO netnet_cli;
GRANT SELECT, DELETE ON health_counts TO netnet_cli;
GRANT SELECT, INSERT, UPDATE ON guard_leases TO netnet_cli;
GRANT SELECT (name, remotes, environments, actions, created_at, created_by, revoked_at, last_used_at), INSERT ON api_tokens TO netnet_cli;
GRANT UPDATE (revoked_at) ON api_tokens TO netnet_cli;
