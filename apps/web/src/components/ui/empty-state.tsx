import type { ReactNode } from 'react';

export type EmptyStateProps = {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
};

/** What a list shows when it has nothing yet: what will appear and how to get there. */
export function EmptyState({ icon, title, children, action }: EmptyStateProps) {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-2 py-4 text-center">
      {icon ? (
        <div className="mb-2 flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-400/10 dark:text-brand-300 [&_svg]:size-5">
          {icon}
        </div>
      ) : null}
      <p className="font-semibold text-fg">{title}</p>
      {children ? <div className="text-sm text-fg-muted">{children}</div> : null}
      {action ? <div className="mt-3">{action}</div> : null}
    </div>
  );
}
