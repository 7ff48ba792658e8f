/**
 * One bar or slice. `isOthers` marks a row that already sums up the groups
 * past a limit (as the server's reports send it), `groups` how many it sums.
 */
export type CategoryDatum = { label: string; value: number; isOthers?: boolean; groups?: number };

/** Bars a bar chart draws at most; past it, the top ones and "Others". */
export const MAX_BAR_CATEGORIES = 30;
/** Slices a pie draws at most, "Others" included. */
export const MAX_PIE_SLICES = 8;

export type CapCategoriesOptions = {
  /** Rows shown at most, "Others" included. */
  max: number;
  /** A row that already sums up the groups past the caller's own limit. */
  others?: CategoryDatum | null;
  othersLabel?: string;
  /**
   * The values add up (counts, sums), so the groups past the cap can be
   * summed into "Others". When they do not (means, rates), summing would
   * invent a figure: the top `max` rows are kept and the rest left out.
   */
  isAdditive?: boolean;
};

export type CappedCategories = {
  /** The rows to draw, in the caller's order, "Others" last. */
  rows: CategoryDatum[];
  /** The "Others" row among `rows`, if any. */
  others: CategoryDatum | null;
  /**
   * Groups in all (the rows given, plus those an incoming "Others" sums up);
   * null when an incoming "Others" does not say how many it sums (`groups`).
   */
  total: number | null;
  /** Groups not drawn as a bar of their own (folded into "Others" or left out); null when unknown. */
  hidden: number | null;
  /** Rows this cap summed into "Others". */
  folded: number;
  /** Groups left out entirely (values that cannot be summed). */
  omitted: number;
};

/**
 * At most `max` categories: the largest, in the order given, then one
 * "Others" row for the rest. An "Others" row the caller sent (in `data`
 * flagged `isOthers`, or as `others`) is kept and grows by what is folded
 * into it; it always takes the last place.
 */
export function capCategories(
  data: readonly CategoryDatum[],
  { max, others = null, othersLabel = 'Others', isAdditive = false }: CapCategoriesOptions,
): CappedCategories {
  const limit = Math.max(1, Math.floor(max));
  const incoming = [...data.filter((datum) => datum.isOthers), ...(others ? [others] : [])];
  const groupsIn = (datum: CategoryDatum) => datum.groups ?? 1;
  const regular = data.filter((datum) => !datum.isOthers);
  const isCountKnown = incoming.every((datum) => datum.groups !== undefined);
  const incomingGroups = incoming.reduce((sum, datum) => sum + groupsIn(datum), 0);
  const total = isCountKnown ? regular.length + incomingGroups : null;
  const hiddenWith = (count: number) => (isCountKnown ? count + incomingGroups : null);

  const mergeOthers = (folded: readonly CategoryDatum[]): CategoryDatum | null => {
    const parts = [...incoming, ...folded];
    if (parts.length === 0) return null;
    return {
      label: incoming[0]?.label ?? othersLabel,
      value: parts.reduce((sum, datum) => sum + datum.value, 0),
      isOthers: true,
      ...(isCountKnown ? { groups: parts.reduce((sum, datum) => sum + groupsIn(datum), 0) } : {}),
    };
  };

  const fits = regular.length + (incoming.length > 0 ? 1 : 0) <= limit;
  if (fits) {
    const merged = mergeOthers([]);
    return {
      rows: merged ? [...regular, merged] : [...regular],
      others: merged,
      total,
      hidden: hiddenWith(0),
      folded: 0,
      omitted: 0,
    };
  }

  const canFold = isAdditive || incoming.length > 0;
  // Room for the "Others" row when there is one to show.
  const keep = canFold ? limit - 1 : limit;
  const ranked = regular
    .map((datum, index) => ({ datum, index }))
    .sort((a, b) => b.datum.value - a.datum.value || a.index - b.index);
  const kept = new Set(ranked.slice(0, keep).map((entry) => entry.index));
  const shown = regular.filter((_, index) => kept.has(index));
  const rest = regular.filter((_, index) => !kept.has(index));
  if (!canFold) {
    return { rows: shown, others: null, total, hidden: rest.length, folded: 0, omitted: rest.length };
  }
  // An incoming "Others" of values that do not add up cannot take more in: the rest is left out.
  const merged = isAdditive ? mergeOthers(rest) : mergeOthers([]);
  return {
    rows: merged ? [...shown, merged] : shown,
    others: merged,
    total,
    hidden: hiddenWith(rest.length),
    folded: isAdditive ? rest.length : 0,
    omitted: isAdditive ? 0 : rest.length,
  };
}
