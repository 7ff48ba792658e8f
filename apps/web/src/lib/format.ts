import type { ChatbotVariableType } from '@courselens/contracts';

/** Display formats shared by every screen (en-US, the user's time zone). */

const numberFormat = new Intl.NumberFormat('en-US');
const decimalFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const percentFormat = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 0 });
const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const dateTimeSecondsFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' });
const relativeFormat = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

export function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : numberFormat.format(value);
}

export function formatDecimal(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : decimalFormat.format(value);
}

/** `ratio` from 0 to 1. */
export function formatPercent(ratio: number | null | undefined): string {
  return ratio === null || ratio === undefined || Number.isNaN(ratio) ? '—' : percentFormat.format(ratio);
}

function toDate(value: string | Date | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDate(value: string | Date | null | undefined): string {
  const date = toDate(value);
  return date ? dateFormat.format(date) : '—';
}

export function formatDateTime(value: string | Date | null | undefined): string {
  const date = toDate(value);
  return date ? dateTimeFormat.format(date) : '—';
}

/** With seconds: for figures that can be minutes or seconds apart (a report refreshed in the background). */
export function formatDateTimeWithSeconds(value: string | Date | null | undefined): string {
  const date = toDate(value);
  return date ? dateTimeSecondsFormat.format(date) : '—';
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "3 hours ago", "yesterday"; under a minute is "just now". */
export function formatRelative(value: string | Date | null | undefined, now: Date = new Date()): string {
  const date = toDate(value);
  if (!date) return '—';
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relativeFormat.format(Math.round(seconds / size), unit);
  }
  return 'just now';
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A value a custom AI agent captured, as a person reads it: Yes/No, grouped
 * numbers, a date variable's calendar day (`2026-03-01`) as a date read in
 * local time, so no time zone moves it to the day before; text (and a
 * choice) as it was captured.
 */
export function formatCapturedValue(
  value: string | number | boolean | null | undefined,
  type?: ChatbotVariableType,
): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return formatDecimal(value);
  const day = type === 'date' ? ISO_DAY.exec(value) : null;
  if (day) return formatDate(new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
  return value;
}
