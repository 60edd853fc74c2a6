import { useLingui } from '@lingui/react/macro';
import { Badge } from '../../components/staff-table.tsx';

/** Beside Graded or Returned in the teacher's views: the work came in after the due time. */
export function LateBadge() {
  const { t } = useLingui();
  return (
    <Badge tone="warning">
      {t({ comment: 'Badge beside Graded or Returned: handed in after the due time', message: 'Late' })}
    </Badge>
  );
}
