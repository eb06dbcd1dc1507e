// The one version rule, for the browser, the shell's server and the release tooling alike: a
// semantic version exactly as semver.org writes it, without build metadata and without a leading
// "v". Versions name release folders and URLs, so each has one spelling. Written out here rather
// than importing semver, which would add its whole regex table to the shell; version.test.ts runs
// one table of versions through this and the semver package and expects the same answers.

// semver.org's regular expression (https://semver.org/#is-there-a-suggested-regular-expression-regex-to-check-a-semver-string)
// with the build-metadata group removed.
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?$/;

// semver also refuses versions longer than 256 characters and parts beyond Number.MAX_SAFE_INTEGER.
const MAX_LENGTH = 256;

export function isVersion(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > MAX_LENGTH) return false;
  const parts = SEMVER.exec(value);
  return !!parts && parts.slice(1, 4).every((part) => Number(part) <= Number.MAX_SAFE_INTEGER);
}
