// The one title-id rule, for the apps (route parameters) and the catalogue service (API paths).
// TMDB ids are positive 32-bit integers written in plain decimal without leading zeros, so
// '06', '1e3', '0x10' or 2^31 can never name a title. Dependency-free: the catalogue service
// bundles this file without the rest of the contract.

/** The largest id TMDB can hand out (a signed 32-bit integer). */
const MAX_TITLE_ID = 2_147_483_647;

/** The id `raw` names, or null when it cannot be a title id. */
export function parseTitleId(raw: string | null | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= MAX_TITLE_ID ? id : null;
}
