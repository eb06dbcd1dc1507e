-- The guard runs as a process of its own (control-plane/src/guard/, started by `npm start` and
-- `start:cluster` as `npm run rollout -- guard`, the CLI's role), no longer inside each shell
-- instance. An instance therefore keeps no right of the guard's: it neither takes the lease nor
-- rolls a canary back, so no code running in an instance can change a map at all.
REVOKE SELECT, INSERT, UPDATE ON guard_leases FROM netnet_instance;
REVOKE EXECUTE ON FUNCTION netnet_guard_rollback(text, text, bigint, text, text, text, numeric, text, text, integer) FROM netnet_instance;
-- Pruning release-health counts is the lease holder's (the guard's) work too.
REVOKE DELETE ON health_counts FROM netnet_instance;
REVOKE DELETE ON health_network_counts, health_failed_networks FROM netnet_instance;
