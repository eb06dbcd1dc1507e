// Release dates arrive as 'YYYY-MM-DD' calendar dates. They are formatted in UTC so a member
// west of Greenwich doesn't see a title arrive the day before it does.
const dayMonthYear = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** '2027-03-12' → a Date at UTC midnight; anything that is not a real calendar date → null. */
export function parseReleaseDate(value: string | undefined | null): Date | null {
  const match = value ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  if (!match) return null;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 2027-02-31 over into March; such a date is not a release date.
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : null;
}

/** '2027-03-12' → 'Coming 12 March 2027'. */
export function releaseLabel(value: string | undefined | null): string {
  const date = parseReleaseDate(value);
  return date ? `Coming ${dayMonthYear.format(date)}` : 'Release date to be announced';
}
