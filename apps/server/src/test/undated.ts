/**
 * An analytics answer without the moment its figures were computed, which
 * two computations of the same figures never share: for comparing them.
 */
export function undated<T extends { basis: { computedAt: string } }>(answer: T): T {
  return { ...answer, basis: { ...answer.basis, computedAt: '' } };
}
