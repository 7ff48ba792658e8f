let known: readonly string[] | null = null;

/**
 * Every IANA time zone the browser knows, with `current` first when the
 * browser does not list it (a zone saved from another browser), so a saved
 * value always shows in a picker.
 */
export function timeZones(current?: string): readonly string[] {
  if (known === null) {
    try {
      known = Intl.supportedValuesOf('timeZone');
    } catch {
      known = ['UTC'];
    }
    // Some engines leave UTC out of the list; it is the default everywhere here.
    if (!known.includes('UTC')) known = ['UTC', ...known];
  }
  return current && !known.includes(current) ? [current, ...known] : known;
}
