import { Download } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { api, isApiError } from '@/lib/api-client';
import { downloadText } from '@/lib/download';
import { toast } from '@/lib/toast';

export type ExportCsvButtonProps = {
  /** The export endpoint under /api, e.g. `/courses/export`. */
  path: string;
  /** The list's current filters, so the file holds what the screen shows (every page of it). */
  query?: Record<string, string | number | boolean | null | undefined>;
  fileName: string;
  label?: string;
};

/** Downloads a list as CSV from the server (which applies the same filters and the organization scope). */
export function ExportCsvButton({ path, query, fileName, label = 'Export CSV' }: ExportCsvButtonProps) {
  const [isExporting, setIsExporting] = useState(false);

  async function handleExport() {
    setIsExporting(true);
    try {
      const csv = await api.get<string>(path, { query, headers: { Accept: 'text/csv' } });
      downloadText(fileName, typeof csv === 'string' ? csv : '');
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'The export failed. Please try again.');
    } finally {
      setIsExporting(false);
    }
  }

  return (
    <Button variant="outline" onClick={() => void handleExport()} isLoading={isExporting}>
      {isExporting ? null : <Download aria-hidden="true" />}
      {label}
    </Button>
  );
}
