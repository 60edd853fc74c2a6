import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { RotateCw } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast/headless';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import type { TeacherAssignment } from '#shared/assignments';
import { createAssignment, editAssignment } from '#shared/contract/assignments';
import { BackLink } from '../../components/ui/back-link.tsx';
import { Button } from '../../components/ui/button.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { LoadFailure } from '../../components/ui/status-cards.tsx';
import { ApiError, call } from '../../lib/api.ts';
import { withLoading } from '../../stores/app-store.ts';
import { emptyAssignmentDraft, draftOfAssignment, mergeWithLatest, type AssignmentDraft } from './assignment-draft.ts';
import { useSchoolTimeZone } from './assignment-time.ts';
import { ASSIGNMENTS_PATH, assignmentPath } from './assignment-paths.ts';
import { assignmentQueries } from './assignment-queries.ts';
import { AssignmentForm, isChangedElsewhere } from './teacher-assignment-form.tsx';

/** After a save: every assignment list and the assignment's own screen are read again. */
function useAfterSave() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (saved: TeacherAssignment) => {
    queryClient.setQueryData(assignmentQueries.detail(saved._id).queryKey, saved);
    await queryClient.invalidateQueries({ queryKey: assignmentQueries.all });
    await navigate(assignmentPath(saved._id));
  };
}

function NewAssignment() {
  const { t } = useLingui();
  const classId = useSearchParams()[0].get('class');
  const [draft, setDraft] = useState<AssignmentDraft>(() => emptyAssignmentDraft(classId ? [classId] : []));
  const afterSave = useAfterSave();
  return (
    <>
      <PageTitle>{t`New assignment`}</PageTitle>
      <PageHeader className="mt-3" title={t`New assignment`} />
      <AssignmentForm
        draft={draft}
        onChange={setDraft}
        locks={null}
        submitLabel={t`Create assignment`}
        onSave={async (body) => {
          const { data } = await withLoading(() => call(createAssignment, { body }));
          const title = data.title;
          toast.success(t`Assignment “${title}” created`);
          await afterSave(data);
        }}
      />
    </>
  );
}

function EditAssignmentForm({ assignment, zone }: { assignment: TeacherAssignment; zone: string }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const afterSave = useAfterSave();
  // The version the save sends: the one the draft was read at, until a reload takes the latest.
  const [base, setBase] = useState(assignment);
  const [draft, setDraft] = useState(() => draftOfAssignment(assignment, zone));
  const [isConflict, setIsConflict] = useState(false);
  const [isReloaded, setIsReloaded] = useState(false);

  const readLatest = async () => {
    await queryClient.invalidateQueries({ queryKey: assignmentQueries.detail(assignment._id).queryKey });
    return queryClient.fetchQuery(assignmentQueries.detail(assignment._id));
  };
  const reload = async () => {
    const latest = await readLatest();
    setBase(latest);
    setDraft((mine) => mergeWithLatest(mine, latest, zone));
    setIsConflict(false);
    setIsReloaded(true);
  };

  return (
    <>
      {isConflict ? (
        <div role="alert" className="mt-6 rounded-lg border border-warning/40 bg-warning-soft p-4 text-sm text-fg">
          <p className="font-semibold">{t`Someone else saved this assignment after you opened it.`}</p>
          <p className="mt-1">
            {t`Reload the latest version to save yours on top of it: your title and instructions stay as you typed them, the other fields show what was saved.`}
          </p>
          <Button variant="secondary" className="mt-3" onClick={() => void reload()}>
            <RotateCw className="size-4" aria-hidden="true" />
            {t`Reload the latest version`}
          </Button>
        </div>
      ) : isReloaded ? (
        <p role="status" className="mt-6 rounded-lg border border-line bg-surface-muted p-4 text-sm text-fg">
          {t`The latest version is loaded, with your title and instructions. Check the other fields, then save.`}
        </p>
      ) : null}
      <AssignmentForm
        key={base.version}
        draft={draft}
        onChange={setDraft}
        stored={base}
        locks={base.handIns.handedIn > 0 ? { classIds: base.classes.map((taught) => taught._id) } : null}
        submitLabel={t`Save changes`}
        onSave={async (body) => {
          try {
            const { data } = await withLoading(() =>
              call(editAssignment, { params: { id: assignment._id }, body: { ...body, version: base.version } }),
            );
            const title = data.title;
            toast.success(t`Assignment “${title}” saved`);
            await afterSave(data);
          } catch (error) {
            if (isChangedElsewhere(error)) setIsConflict(true);
            // Work was handed in meanwhile: the locks come with the latest counts, the writing stays.
            if (error instanceof ApiError && error.code === 'ASSIGNMENT_HAS_HAND_INS') {
              const latest = await readLatest();
              setBase((current) => ({ ...current, handIns: latest.handIns }));
            }
            throw error;
          }
        }}
      />
    </>
  );
}

function EditAssignment({ id }: { id: string }) {
  const { t } = useLingui();
  const assignment = useQuery({ ...assignmentQueries.detail(id), refetchOnWindowFocus: false });
  // Its times read on the school's clock: the draft is made once, so the zone comes first.
  const zone = useSchoolTimeZone();
  const title = assignment.data?.title;
  return (
    <>
      <PageTitle>{t`Edit assignment`}</PageTitle>
      <PageHeader
        className="mt-3"
        title={
          title === undefined ? (
            t`Edit assignment`
          ) : (
            <Trans>
              Edit “<bdi>{title}</bdi>”
            </Trans>
          )
        }
      />
      {assignment.isPending || zone === undefined ? (
        <LoadingStatus className="mt-4">{t`Loading the assignment…`}</LoadingStatus>
      ) : assignment.isError ? (
        <LoadFailure
          className="mt-4"
          title={t`The assignment could not be loaded.`}
          message={assignment.error.message}
        />
      ) : !assignment.data.isOwner ? (
        <LoadFailure
          className="mt-4"
          title={t`Only its author can change this assignment`}
          message={t`You teach one of its classes, so you can grade it, but not edit it.`}
        />
      ) : assignment.data.archived ? (
        <LoadFailure
          className="mt-4"
          title={t`This assignment is archived`}
          message={t`An archived assignment can no longer be changed. Duplicate it to use it again.`}
        />
      ) : (
        <EditAssignmentForm assignment={assignment.data} zone={zone} />
      )}
    </>
  );
}

/**
 * /dashboard/teacher/assignments/new and …/:id/edit (decision 063): the assignment editor, empty
 * (a class from ?class= already chosen) or with the stored assignment and its version.
 */
export function Component() {
  const { id } = useParams();
  const { t } = useLingui();
  return (
    <div className="mx-auto w-full max-w-3xl pb-16">
      <BackLink to={id ? assignmentPath(id) : ASSIGNMENTS_PATH}>
        {id ? t`Back to the assignment` : t`Back to assignments`}
      </BackLink>
      {id ? <EditAssignment id={id} /> : <NewAssignment />}
    </div>
  );
}
