import { describe, expect, it } from 'vitest';

import { formatCoefficient, formatShare } from './questions-format';

describe('the question analysis formats', () => {
  it('writes a share as a percentage with a real minus sign when negative', () => {
    expect(formatShare(0.625)).toBe('62.5%');
    expect(formatShare(-1.17355)).toBe('−117.4%');
    expect(formatShare(-0.0001)).toBe('0%');
    expect(formatShare(null)).toBe('—');
    expect(formatShare(Number.NaN)).toBe('—');
  });

  it('writes a coefficient with two decimals and the same minus sign', () => {
    expect(formatCoefficient(0.3)).toBe('0.30');
    expect(formatCoefficient(-0.494)).toBe('−0.49');
    expect(formatCoefficient(-0.004)).toBe('0.00');
    expect(formatCoefficient(undefined)).toBe('—');
  });
});
