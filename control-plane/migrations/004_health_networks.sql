-- Release health by client network (docs/release-health.md). `network` is a keyed
-- hash of the client's /24 (IPv4) or /48 (IPv6), never an address.

-- Sessions (kind 's') and vitals-only reports (kind 'v') each network offered per release and
-- hour: the collector counts at most the cap of them, whichever instance they reach.
CREATE TABLE health_network_counts (
  environment text   NOT NULL,
  hour        bigint NOT NULL,
  remote      text   NOT NULL,
  release     text   NOT NULL,
  channel     text   NOT NULL,
  kind        text   NOT NULL CHECK (kind IN ('s', 'v')),
  network     text   NOT NULL,
  offered     bigint NOT NULL,
  PRIMARY KEY (environment, hour, remote, release, channel, kind, network)
);

-- How many of a release's counted failures each network sent, per minute: the guard rolls back
-- only on failures from several networks, and never on what one network alone adds.
CREATE TABLE health_failed_networks (
  environment text   NOT NULL,
  minute      bigint NOT NULL,
  remote      text   NOT NULL,
  release     text   NOT NULL,
  channel     text   NOT NULL,
  network     text   NOT NULL,
  failures    bigint NOT NULL,
  PRIMARY KEY (environment, minute, remote, release, channel, network)
);
