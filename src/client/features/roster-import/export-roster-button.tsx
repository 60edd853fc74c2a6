import { useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast/headless';
import { listRoster } from '#shared/contract/classes';
import { Button } from '../../components/ui/button.tsx';
import { ApiError, call } from '../../lib/api.ts';

/**
 * The class's roster as a CSV file, built in the browser from the roster the server answers
 * (decision 034): the import's own columns, so the file can be imported back.
 */
export function ExportRosterButton({ classId, className }: { classId: string; className: string }) {
  const queryClient = useQueryClient();
  const [isExporting, setIsExporting] = useState(false);
  const { t } = useLingui();
  const handleExport = async () => {
    setIsExporting(true);
    try {
      // Always the roster as it is now: a file is a copy, so it is read fresh.
      const roster = await queryClient.fetchQuery({
        queryKey: ['roster-export', classId],
        queryFn: async ({ signal }) => (await call(listRoster, { params: { id: classId } }, { signal })).data,
        staleTime: 0,
      });
      // The file keeps the import's English headers (it is read back); its name is the reader's.
      const { downloadRosterCsv } = await import('./roster-csv-file.ts');
      downloadRosterCsv(
        roster,
        className,
        t({ comment: 'Part of a file name: a class roster export, no spaces', message: 'roster' }),
      );
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : t`The roster could not be exported.`);
    } finally {
      setIsExporting(false);
    }
  };
  return (
    <Button variant="secondary" onClick={() => void handleExport()} disabled={isExporting}>
      <Download className="size-4" aria-hidden="true" />
      {t`Export roster (CSV)`}
    </Button>
  );
}
