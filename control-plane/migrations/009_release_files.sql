-- Releases' files live in the store (docs/store.md, "Release files"), so any machine publishes and
-- any machine serves: no process needs a shared or persistent disk.
-- Content-addressed: a file is kept once by its SHA-256, however many releases hold it (a rebuilt
-- remote keeps most of its chunks), with the brotli and gzip copies browsers are served.
CREATE TABLE release_blobs (
  sha256 text    PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  body   bytea   NOT NULL,
  br     bytea,
  gz     bytea
);

-- A release is the list of its files, written in the same transaction as its row: a publish is
-- all or nothing, and retention deletes in one place (the row; its list goes with it).
CREATE TABLE release_files (
  remote  text NOT NULL,
  version text NOT NULL,
  path    text NOT NULL CHECK (path ~ '^[^/.][^\\]*$' AND path !~ '(^|/)\.'),
  sha256  text NOT NULL REFERENCES release_blobs (sha256),
  PRIMARY KEY (remote, version, path),
  FOREIGN KEY (remote, version) REFERENCES releases (remote, version) ON DELETE CASCADE
);
CREATE INDEX release_files_by_blob ON release_files (sha256);

-- Instances serve releases' files (their working folder is a cache of these); the API and the CLI
-- publish them; the CLI's prune removes what no release holds any more.
GRANT SELECT ON release_blobs, release_files TO netnet_instance, netnet_api, netnet_cli;
GRANT INSERT ON release_blobs, release_files TO netnet_api, netnet_cli;
GRANT DELETE ON release_blobs, release_files TO netnet_cli;
