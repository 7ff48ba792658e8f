import type { BillingMeter } from '@courselens/contracts';
import { planById } from '@courselens/contracts';
import { describe, expect, it } from 'vitest';

import {
  forecastSentence,
  formatInvoiceAmount,
  formatLongDate,
  formatPercentUsed,
  formatPlanPrice,
  meterLevel,
  meterPercent,
  meterUsage,
  meterValueText,
} from './billing-format';

const meter = (overrides: Partial<BillingMeter> = {}): BillingMeter => ({
  metric: 'learners',
  used: 12,
  cap: 100,
  planCap: 100,
  percent: 12,
  forecast: { addedLast30Days: 12, perDay: 0.4, reachesCapOn: null },
  ...overrides,
});

describe('meter levels', () => {
  it.each([
    [0, 'ok'],
    [79, 'ok'],
    [80, 'high'],
    [89, 'high'],
    [90, 'critical'],
    [99, 'critical'],
    [100, 'full'],
    [130, 'full'],
  ] as const)('%i of 100 is %s', (used, level) => {
    expect(meterLevel({ used, cap: 100 })).toBe(level);
  });

  it('takes a cap of 0 as full once one is used, and empty before', () => {
    expect(meterPercent({ used: 0, cap: 0 })).toBe(0);
    expect(meterLevel({ used: 0, cap: 0 })).toBe('ok');
    expect(meterLevel({ used: 1, cap: 0 })).toBe('full');
  });
});

describe('meter words', () => {
  it('says the use against the cap, with the value assistive technology reads', () => {
    expect(meterUsage(meter({ used: 2480, cap: 2500 }))).toBe('2,480 of 2,500 learners');
    expect(meterValueText(meter({ used: 2480, cap: 2500 }))).toBe('2,480 of 2,500 learners used (99 %)');
    expect(meterUsage(meter({ metric: 'chatbots', used: 0, cap: 1 }))).toBe('0 of 1 chatbot');
    expect(formatPercentUsed(66.7)).toBe('67 % used');
    expect(formatPercentUsed(0)).toBe('0 % used');
    expect(formatPercentUsed(0.5)).toBe('Under 1 % used');
  });
});

describe('forecast sentence', () => {
  it('names the day the cap is reached at this pace', () => {
    expect(
      forecastSentence(
        meter({ cap: 2500, forecast: { addedLast30Days: 300, perDay: 10, reachesCapOn: '2027-03-14' } }),
      ),
    ).toBe('At this pace you reach 2,500 learners on 14 March 2027.');
  });

  it('says what the last 30 days added when the cap is not in sight', () => {
    expect(forecastSentence(meter())).toBe('12 added in the last 30 days.');
    expect(forecastSentence(meter({ forecast: { addedLast30Days: 1, perDay: 0, reachesCapOn: null } }))).toBe(
      '1 added in the last 30 days.',
    );
    expect(forecastSentence(meter({ forecast: { addedLast30Days: 0, perDay: 0, reachesCapOn: null } }))).toBe(
      'None added in the last 30 days.',
    );
  });
});

describe('formats', () => {
  it('writes days as the billing messages do, a calendar day never moved by the time zone', () => {
    expect(formatLongDate('2027-03-14')).toBe('14 March 2027');
    expect(formatLongDate('2027-03-14T12:00:00.000Z')).toBe('14 March 2027');
    expect(formatLongDate(null)).toBe('—');
    expect(formatLongDate('not a date')).toBe('—');
  });

  it('prices a plan per month or per year (ten months for twelve)', () => {
    expect(formatPlanPrice(planById('team'), 'month')).toBe('$49');
    expect(formatPlanPrice(planById('team'), 'year')).toBe('$490');
    expect(formatPlanPrice(planById('free'), 'year')).toBe('$0');
  });

  it('reads invoice amounts from the currency’s smallest unit', () => {
    expect(formatInvoiceAmount(4900, 'usd')).toBe('$49.00');
    expect(formatInvoiceAmount(49000, 'eur')).toBe('€490.00');
    expect(formatInvoiceAmount(5000, 'jpy')).toBe('¥5,000');
  });
});
