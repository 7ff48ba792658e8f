import {
  BILLING_METRIC_LABELS,
  planPrice,
  type BillingInterval,
  type BillingMeter,
  type BillingMetric,
  type Plan,
} from '@courselens/contracts';

import { formatNumber } from '@/lib/format';

/*
 * The words and numbers of the billing screens, as pure functions (tested
 * beside this file), so the meters, the forecast and the plan cards say the
 * same thing everywhere.
 */

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const longDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
const longDayUtc = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/**
 * A day as the billing messages write it: "14 March 2027". A calendar day
 * (`2027-03-14`) is that day wherever the reader is; a timestamp is read in
 * the reader's time zone.
 */
export function formatLongDate(value: string | null | undefined): string {
  if (!value) return '—';
  const day = ISO_DAY.exec(value);
  if (day) return longDayUtc.format(new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))));
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '—' : longDate.format(date);
}

/** "1 learner", "2,500 learners". */
export function countOf(metric: BillingMetric, n: number): string {
  const label = BILLING_METRIC_LABELS[metric];
  return `${formatNumber(n)} ${n === 1 ? label.one : label.many}`;
}

/** How full a meter is, for its colour and the words beside it: at 80, 90 and 100 % of the cap. */
export type MeterLevel = 'ok' | 'high' | 'critical' | 'full';

/** The share of the cap in use, in percent (a cap of 0 is full as soon as one is used). */
export function meterPercent(meter: Pick<BillingMeter, 'used' | 'cap'>): number {
  if (meter.cap === 0) return meter.used > 0 ? 100 : 0;
  return (meter.used / meter.cap) * 100;
}

export function meterLevel(meter: Pick<BillingMeter, 'used' | 'cap'>): MeterLevel {
  const percent = meterPercent(meter);
  if (percent >= 100) return 'full';
  if (percent >= 90) return 'critical';
  if (percent >= 80) return 'high';
  return 'ok';
}

/** What the level means in words, shown beside the colour (never colour alone). */
export const METER_LEVEL_WORDS: Record<MeterLevel, string | null> = {
  ok: null,
  high: 'Over 80 % used',
  critical: 'Over 90 % used',
  full: 'Limit reached',
};

/** "12 of 100 learners", "2,480 of 2,500 learners". */
export function meterUsage(meter: Pick<BillingMeter, 'metric' | 'used' | 'cap'>): string {
  return `${formatNumber(meter.used)} of ${countOf(meter.metric, meter.cap)}`;
}

/** "67 % used"; under 1 % but not nothing is "under 1 % used", so a little never reads as none. */
export function formatPercentUsed(percent: number): string {
  if (percent > 0 && percent < 1) return 'Under 1 % used';
  return `${Math.round(percent)} % used`;
}

/** The meter's value for assistive technology: "12 of 100 learners used (12 %)". */
export function meterValueText(meter: Pick<BillingMeter, 'metric' | 'used' | 'cap'>): string {
  return `${meterUsage(meter)} used (${Math.round(meterPercent(meter))} %)`;
}

/**
 * Where usage is heading: "At this pace you reach 2,500 learners on 14 March
 * 2027." when the server forecasts the day the cap is reached, else what the
 * last 30 days added.
 */
export function forecastSentence(meter: Pick<BillingMeter, 'metric' | 'cap' | 'forecast'>): string {
  const { reachesCapOn, addedLast30Days } = meter.forecast;
  if (reachesCapOn) {
    return `At this pace you reach ${countOf(meter.metric, meter.cap)} on ${formatLongDate(reachesCapOn)}.`;
  }
  if (addedLast30Days === 0) return 'None added in the last 30 days.';
  return `${formatNumber(addedLast30Days)} added in the last 30 days.`;
}

/** A plan's price for an interval: "$49", "$490", "Custom". */
export function formatPlanPrice(plan: Plan, interval: BillingInterval): string {
  const price = planPrice(plan, interval);
  return price === null ? 'Custom' : `$${formatNumber(price)}`;
}

export const INTERVAL_WORDS: Record<BillingInterval, { adjective: string; per: string }> = {
  month: { adjective: 'Monthly', per: 'month' },
  year: { adjective: 'Yearly', per: 'year' },
};

/**
 * An invoice's amount from the currency's smallest unit: 4900 USD cents is
 * "$49.00"; a currency without minor units (JPY) is taken as it is.
 */
export function formatInvoiceAmount(amountDue: number, currency: string): string {
  try {
    const format = new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(amountDue / 10 ** digits);
  } catch {
    // A code Intl does not know: the number and the code as given.
    return `${formatNumber(amountDue / 100)} ${currency.toUpperCase()}`;
  }
}
