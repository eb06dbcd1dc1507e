-- What each role may do with the tables that came after the roles (docs/deploy.md, "Roles"):
-- release health by network (004) and the release console's links and sessions (005).

-- Instances count sessions and failures per network (the collector) and prune them (the guard).
GRANT SELECT, INSERT, UPDATE, DELETE ON health_network_counts, health_failed_networks TO netnet_instance;
-- The API's status and the console read the evidence; the CLI's status reads it and its guard prunes it.
GRANT SELECT ON health_network_counts, health_failed_networks TO netnet_api;
GRANT SELECT, DELETE ON health_network_counts, health_failed_networks TO netnet_cli;

-- A person's sign-in link is made by `npm run tokens` (the CLI) and used once through the API,
-- which keeps the session it opens; neither reads a secret, only hashes.
GRANT SELECT (person) ON api_tokens TO netnet_cli;
GRANT INSERT ON console_links TO netnet_cli;
GRANT SELECT, UPDATE (used_at) ON console_links TO netnet_api;
GRANT SELECT, INSERT, UPDATE (ended_at) ON console_sessions TO netnet_api;
