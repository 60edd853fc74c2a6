import { Trans, useLingui } from '@lingui/react/macro';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { useProfile } from '../session/profile.ts';
import { drawingStorageKey } from './canvas-storage.ts';
import { Whiteboard } from './whiteboard.tsx';
import { useDashboardRole } from '../session/use-dashboard-role.ts';

/**
 * /dashboard/teacher/canvas and /dashboard/student/canvas (SPEC §2 Draw).
 * The page fills the dashboard's main area: the viewport less the 65 px
 * header and main's padding (1 rem each side on phones, 2 rem from sm).
 */
export function Component() {
  const { t } = useLingui();
  const role = useDashboardRole();
  // The role guard renders this page once the profile is fetched.
  const userId = useProfile(role)?._id;
  const storageKey = userId ? drawingStorageKey(role, userId) : null;
  const title = t`Whiteboard`;
  return (
    <div className="flex h-[calc(100dvh-65px-2rem)] min-h-80 flex-col gap-3 sm:h-[calc(100dvh-65px-4rem)]">
      <PageTitle>{title}</PageTitle>
      {storageKey ? (
        <Whiteboard key={storageKey} storageKey={storageKey} title={title} />
      ) : (
        <LoadingStatus>
          <Trans>Opening the whiteboard…</Trans>
        </LoadingStatus>
      )}
    </div>
  );
}
