import type { CustomReport } from '@courselens/contracts';
import { Check, Copy, Link2, RefreshCw } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { Switch } from '@/components/ui/switch';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { formatNumber } from '@/lib/format';
import { useCanManage } from '@/lib/roles';
import { toast } from '@/lib/toast';

import { useReportSharing } from '../api/custom-reports';

export function publicReportUrl(token: string): string {
  return `${window.location.origin}${paths.customReports.public.href(token)}`;
}

/**
 * The Share control: public switch, the link to copy, rotation (confirmed) and
 * the visit count. Only owners switch and replace the link; a team member sees
 * the state and copies the link, with the reason beside the disabled switch.
 */
export function SharePanel({
  report,
  organizationId,
}: {
  report: Pick<CustomReport, 'id' | 'name' | 'isPublic' | 'publicShareToken' | 'viewCount'>;
  organizationId: string | null | undefined;
}) {
  const sharing = useReportSharing(organizationId, report.id);
  const permission = useCanManage('sharing');
  const [confirmRotate, setConfirmRotate] = useState(false);
  const [copied, setCopied] = useState(false);
  const url = report.isPublic && report.publicShareToken ? publicReportUrl(report.publicShareToken) : null;

  async function change(next: { isPublic: boolean } | 'rotate') {
    try {
      await sharing.mutateAsync(next);
      if (next === 'rotate') toast.success('New link created; the old one no longer works');
      else toast.success(next.isPublic ? 'Public link switched on' : 'Public link switched off');
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'Sharing could not be changed. Please try again.');
    }
  }

  async function copy() {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      toast.success('Link copied');
      setTimeout(() => setCopied(false), 2000);
    } catch {
      toast.error('The link could not be copied; select it and copy it by hand.');
    }
  }

  return (
    <Card className="flex flex-col gap-4 p-5 print:hidden" aria-labelledby="share-title">
      <div className="flex items-start justify-between gap-4">
        <div>
          <h2 id="share-title" className="flex items-center gap-2 font-semibold text-fg">
            <Link2 aria-hidden="true" className="size-4" />
            Share
          </h2>
          <p className="text-sm text-fg-muted">
            {report.isPublic
              ? 'Anyone with the link can see this report without signing in. Learner e-mail addresses are never shown.'
              : 'Switch on to get a link anyone can open without signing in.'}
          </p>
        </div>
        <Switch
          label="Public link"
          checked={report.isPublic}
          disabled={sharing.isPending || Boolean(permission.reason)}
          describedBy={permission.reason ? 'share-owners-only' : undefined}
          onChange={(isPublic) => void change({ isPublic })}
        />
      </div>
      {permission.reason ? (
        <p id="share-owners-only" className="text-sm font-medium text-fg">
          {permission.reason}.
        </p>
      ) : null}
      {url ? (
        <>
          <div className="flex flex-col gap-2 sm:flex-row">
            <input
              readOnly
              aria-label="Public link"
              value={url}
              onFocus={(event) => event.currentTarget.select()}
              className="h-10 w-full min-w-0 shrink-0 rounded-lg border border-line-strong bg-surface-muted px-3 font-mono text-xs text-fg sm:flex-1"
            />
            <Button variant="outline" onClick={() => void copy()}>
              {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
              Copy link
            </Button>
          </div>
          <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-fg-muted">
            <span data-testid="view-count">
              {formatNumber(report.viewCount)} {report.viewCount === 1 ? 'view' : 'views'}
            </span>
            {permission.reason ? null : (
              <Button variant="ghost" size="sm" onClick={() => setConfirmRotate(true)}>
                <RefreshCw aria-hidden="true" />
                Replace link
              </Button>
            )}
          </div>
        </>
      ) : report.viewCount > 0 ? (
        <p className="text-sm text-fg-muted">{formatNumber(report.viewCount)} views while it was public.</p>
      ) : null}
      <Dialog
        open={confirmRotate}
        onClose={() => setConfirmRotate(false)}
        title="Replace the public link?"
        description="The current link stops working at once; anyone who should still see the report needs the new one."
      >
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={() => setConfirmRotate(false)}>
            Cancel
          </Button>
          <Button
            isLoading={sharing.isPending}
            onClick={() => {
              void change('rotate').then(() => setConfirmRotate(false));
            }}
          >
            Replace link
          </Button>
        </div>
      </Dialog>
    </Card>
  );
}
