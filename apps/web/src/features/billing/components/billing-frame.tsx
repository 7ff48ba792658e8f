import type { ReactNode } from 'react';

import { PageHeader } from '@/components/page-header';

export type BillingFrameProps = {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
};

/** The frame of the billing screens: the title, its actions and the screen, at the app's width. */
export function BillingFrame({ title, description, actions, children }: BillingFrameProps) {
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:px-8">
      <title>{`${title} · CourseLens`}</title>
      <PageHeader title={title} description={description} actions={actions} />
      <div className="mt-8">{children}</div>
    </div>
  );
}
