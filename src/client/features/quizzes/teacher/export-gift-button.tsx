import { Trans, useLingui } from '@lingui/react/macro';
import { FileDown } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast/headless';
import { exportQuiz } from '#shared/contract/quizzes';
import { Button } from '../../../components/ui/button.tsx';
import { downloadEndpointFile } from '../../../lib/download-endpoint-file.ts';

/** The quiz's questions as a GIFT file (Moodle's format), from the server (issue 20 point 6). */
export function ExportGiftButton({ quizId }: { quizId: string }) {
  const [isExporting, setIsExporting] = useState(false);
  const { t } = useLingui();
  const handleExport = async () => {
    setIsExporting(true);
    try {
      await downloadEndpointFile(exportQuiz, { params: { id: quizId }, query: { format: 'gift' } }, 'quiz.gift.txt');
    } catch (error) {
      toast.error(error instanceof Error ? error.message : t`The questions could not be exported.`);
    } finally {
      setIsExporting(false);
    }
  };
  return (
    <Button variant="secondary" onClick={() => void handleExport()} disabled={isExporting}>
      <FileDown className="size-4" aria-hidden="true" />
      <Trans>Export GIFT</Trans>
    </Button>
  );
}
