/** The years whose offsets are checked: before 1970 no event is dated, and zones publish rules years ahead. */
const FIRST_YEAR = 1970;
const LAST_YEAR = 2040;

const known = new Map<string, boolean>();

/**
 * Whether `timeZone` has only ever been (and is scheduled to stay) a whole
 * number of hours off UTC, checked twice a month from 1970 to 2040 (a
 * daylight-saving period lasts months, so none falls between the checks).
 * In such a zone every UTC hour is one local hour and every local midnight
 * falls on a UTC hour, so counts kept per UTC hour can be read per local
 * hour and day as they are; Kolkata (+05:30), Kathmandu (+05:45) or
 * St. John's (−03:30) need their quarters. Computed once per zone.
 */
export function hasWholeHourOffsets(timeZone: string): boolean {
  let whole = known.get(timeZone);
  if (whole === undefined) {
    whole = checkOffsets(timeZone);
    known.set(timeZone, whole);
  }
  return whole;
}

function checkOffsets(timeZone: string): boolean {
  const format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
  for (let year = FIRST_YEAR; year <= LAST_YEAR; year++) {
    for (let month = 0; month < 12; month++) {
      for (const day of [1, 16]) {
        const offset = format
          .formatToParts(Date.UTC(year, month, day))
          .find((part) => part.type === 'timeZoneName');
        // "GMT" is UTC itself; "GMT+05:30" or "GMT-00:44:30" are not whole hours.
        if (!offset || !/^GMT(?:[+-]\d{2}:00)?$/.test(offset.value)) return false;
      }
    }
  }
  return true;
}
