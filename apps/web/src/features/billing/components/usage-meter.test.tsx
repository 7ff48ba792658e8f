import type { BillingMeter } from '@courselens/contracts';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { UsageMeter } from './usage-meter';

const meter = (overrides: Partial<BillingMeter> = {}): BillingMeter => ({
  metric: 'courses',
  used: 2,
  cap: 3,
  planCap: 3,
  percent: 66.7,
  forecast: { addedLast30Days: 2, perDay: 0.07, reachesCapOn: null },
  ...overrides,
});

describe('UsageMeter', () => {
  it('is a progress bar named by its metric, with its value in words and the forecast', () => {
    render(<UsageMeter meter={meter()} />);

    const bar = screen.getByRole('progressbar', { name: 'Courses' });
    expect(bar).toHaveAttribute('aria-valuenow', '67');
    expect(bar).toHaveAttribute('aria-valuetext', '2 of 3 courses used (67 %)');
    expect(bar).toHaveAccessibleDescription('2 added in the last 30 days.');
    expect(screen.getByText('67 % used')).toBeInTheDocument();
    expect(screen.queryByText('override')).not.toBeInTheDocument();
    expect(screen.getByTestId('meter-courses')).toHaveAttribute('data-level', 'ok');
  });

  it.each([
    [80, 'high', 'Over 80 % used'],
    [90, 'critical', 'Over 90 % used'],
    [100, 'full', 'Limit reached'],
  ] as const)('at %i %% it turns %s and says so in words', (used, level, words) => {
    render(<UsageMeter meter={meter({ metric: 'learners', used, cap: 100, planCap: 100, percent: used })} />);

    expect(screen.getByTestId('meter-learners')).toHaveAttribute('data-level', level);
    expect(screen.getByText(words)).toBeInTheDocument();
  });

  it('keeps a bar over its cap inside the scale, and the words true', () => {
    render(<UsageMeter meter={meter({ used: 5, cap: 3, percent: 166.7 })} />);

    const bar = screen.getByRole('progressbar', { name: 'Courses' });
    expect(bar).toHaveAttribute('aria-valuenow', '100');
    expect(bar).toHaveAttribute('aria-valuetext', '5 of 3 courses used (167 %)');
  });

  it('marks a cap an operator set apart from the plan’s', () => {
    render(<UsageMeter meter={meter({ metric: 'chatbots', used: 1, cap: 10, planCap: 1, percent: 10 })} />);

    expect(screen.getByText('override')).toBeInTheDocument();
    expect(screen.getByText('Set for your organization: the plan allows 1 chatbot.')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Custom AI agents' })).toBeInTheDocument();
  });

  it('gives the forecast day when the server has one', () => {
    render(
      <UsageMeter
        meter={meter({
          metric: 'learners',
          used: 2000,
          cap: 2500,
          planCap: 2500,
          percent: 80,
          forecast: { addedLast30Days: 600, perDay: 20, reachesCapOn: '2027-03-14' },
        })}
      />,
    );

    expect(screen.getByText('At this pace you reach 2,500 learners on 14 March 2027.')).toBeInTheDocument();
  });
});
