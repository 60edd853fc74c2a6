import { Trans } from '@lingui/react/macro';
import { useId } from 'react';
import { formatPercent } from '../../lib/format.ts';

/** How much of an upload has been sent (`progress`, 0 to 100): a label read out with its bar. */
export function UploadProgress({
  progress,
  labelClassName = 'text-sm text-fg',
}: {
  progress: number;
  labelClassName?: string;
}) {
  const labelId = useId();
  const percentSent = formatPercent(progress);
  return (
    <>
      <p id={labelId} className={labelClassName}>
        <Trans>Uploading: {percentSent}</Trans>
      </p>
      <div
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress}
        className="h-2.5 overflow-hidden rounded-full bg-surface ring-1 ring-brand-200"
      >
        <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${progress}%` }} />
      </div>
    </>
  );
}
