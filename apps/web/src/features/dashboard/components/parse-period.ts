import { DASHBOARD_PERIODS, DEFAULT_DASHBOARD_PERIOD, type DashboardPeriod } from '@courselens/contracts';

/** `?days=7|30|90`; anything else reads as the default. */
export function parsePeriod(value: string | null): DashboardPeriod {
  const days = Number(value);
  return (DASHBOARD_PERIODS as readonly number[]).includes(days)
    ? (days as DashboardPeriod)
    : DEFAULT_DASHBOARD_PERIOD;
}
