import { useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Archive, ArchiveRestore, ClipboardCheck, ClipboardList, Plus, Presentation } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import toast from 'react-hot-toast/headless';
import { Link, useParams } from 'react-router';
import { changeClass, updateClass } from '#shared/contract/classes';
import { updateClassSchema, type TeacherClass } from '#shared/classes';
import { useEndpointForm } from '../../components/form/use-endpoint-form.ts';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { EmptyState, LoadFailure } from '../../components/ui/status-cards.tsx';
import { call } from '../../lib/api.ts';
import { isolate } from '../../lib/format.ts';
import { useProfile } from '../session/profile.ts';
import { Badge } from '../../components/staff-table.tsx';
import { ClassFields } from './class-parts.tsx';
import { CLASSES_PATH, gradebookPath } from './class-paths.ts';
import { ClassRoster } from './class-roster.tsx';
import { ClassTeachers } from './class-teachers.tsx';
import { classFormLabels, classQueries, putClass, useClassMutation } from './classes-queries.ts';
import { JoinCodePanel } from './join-code-panel.tsx';
import { PendingChangeConfirm, type PendingChange } from '../../components/ui/confirm-dialog.tsx';
import { BackLink } from '../../components/ui/back-link.tsx';
import { classAssignmentsPath, newAssignmentForClassPath } from '../assignments/assignment-paths.ts';
import { teacherBoardPath } from '../class-boards/board-paths.ts';
import { usePreloadRoute } from '../../lib/route-preload.ts';

/**
 * /dashboard/teacher/classes/:id (decision 031, "Class screens"): one class of the teacher's,
 * its name and subject, join code, teachers and roster. The class comes from the teacher's
 * list of classes, so a class they do not teach (or left) is "not found" here.
 */
export function Component() {
  const { id = '' } = useParams();
  const profile = useProfile('teacher');
  const classes = useQuery(classQueries.mine());
  const entry = classes.data?.find((candidate) => candidate._id === id);
  const { t } = useLingui();
  const className = entry?.name;
  usePreloadRoute(teacherBoardPath(id));
  const classTitle = (className: string) => t`${className} · Classes`;

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-8 pb-16">
      <PageTitle>{className ? classTitle(isolate(className)) : t`Class`}</PageTitle>
      <BackLink to={CLASSES_PATH} className="self-start">
        {t`Back to classes`}
      </BackLink>
      {classes.isPending || !profile ? (
        <LoadingStatus>{t`Loading the class…`}</LoadingStatus>
      ) : classes.isError ? (
        <LoadFailure
          title={t`The class could not be loaded.`}
          message={classes.error.message}
          onRetry={() => void classes.refetch()}
        />
      ) : !entry ? (
        <EmptyState
          title={t`This class is not one of yours`}
          hint={t`It may not exist, or you no longer teach it. Your classes are listed on the Classes page.`}
        />
      ) : (
        <ClassScreen entry={entry} ownId={profile._id} />
      )}
    </div>
  );
}

function ClassScreen({ entry, ownId }: { entry: TeacherClass; ownId: string }) {
  const { t } = useLingui();
  return (
    <>
      <PageHeader
        className="-mt-4"
        title={
          <span className="flex flex-wrap items-center gap-3">
            {entry.name}
            {entry.isArchived ? <Badge tone="neutral">{t`Archived`}</Badge> : null}
          </span>
        }
        description={entry.subject ?? t`No subject`}
        actions={
          <>
            <Link to={gradebookPath(entry._id)} className={buttonVariants({ variant: 'secondary' })}>
              <ClipboardList className="size-4" aria-hidden="true" />
              {t`Gradebook`}
            </Link>
            <Link to={teacherBoardPath(entry._id)} className={buttonVariants({ variant: 'secondary' })}>
              <Presentation className="size-4" aria-hidden="true" />
              {t`Open the class board`}
            </Link>
            <ArchiveButton entry={entry} />
          </>
        }
      />
      <div className="grid gap-8 lg:grid-cols-2">
        <Section id="class-name-and-subject" title={t`Name and subject`}>
          <Card padding="md">
            <DetailsForm entry={entry} />
          </Card>
        </Section>
        <Section id="class-join-code" title={t`Join code`}>
          <Card padding="md">
            <JoinCodePanel entry={entry} />
          </Card>
        </Section>
      </div>
      <Section id="class-assignments" title={t`Assignments`}>
        <p className="flex flex-wrap gap-2">
          <Link to={classAssignmentsPath(entry._id)} className={buttonVariants({ variant: 'secondary' })}>
            <ClipboardCheck className="size-4" aria-hidden="true" />
            {t`Assignments of this class`}
          </Link>
          {entry.isArchived ? null : (
            <Link to={newAssignmentForClassPath(entry._id)} className={buttonVariants({ variant: 'secondary' })}>
              <Plus className="size-4" aria-hidden="true" />
              {t`New assignment`}
            </Link>
          )}
        </p>
      </Section>
      <Section id="class-teachers" title={t`Teachers`}>
        <ClassTeachers entry={entry} ownId={ownId} />
      </Section>
      <Section id="class-students" title={t`Students`}>
        <ClassRoster entry={entry} />
      </Section>
    </>
  );
}

/** A part of the class page; `id` is fixed (the title is translated) and names it for assistive technology. */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex min-w-0 flex-col gap-3">
      <h2 id={id} className="text-lg font-semibold text-fg">
        {title}
      </h2>
      {children}
    </section>
  );
}

function DetailsForm({ entry }: { entry: TeacherClass }) {
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const form = useEndpointForm({
    schema: updateClassSchema,
    labels: classFormLabels(),
    onSubmit: async (_input, { body }) => {
      const { data } = await call(updateClass, { params: { id: entry._id }, body });
      toast.success(t`Class updated`);
      putClass(queryClient, data);
      await queryClient.invalidateQueries({ queryKey: classQueries.all });
    },
  });
  return (
    // A new key when the class changes elsewhere: the fields show what the server holds.
    <form key={`${entry.name}\n${entry.subject}`} {...form.formProps} className="flex flex-col gap-3">
      <ClassFields form={form} defaults={entry} />
      <Button type="submit" variant="secondary" disabled={form.isSubmitting} className="self-start">
        {t`Save`}
      </Button>
    </form>
  );
}

function ArchiveButton({ entry }: { entry: TeacherClass }) {
  const [pending, setPending] = useState<PendingChange | null>(null);
  const { t } = useLingui();
  const className = entry.name;
  const change = useClassMutation(
    (kind: 'archive' | 'unarchive') => call(changeClass[kind], { params: { id: entry._id } }),
    (kind) => (kind === 'archive' ? t`Class archived` : t`Class active again`),
  );
  const ask = () =>
    setPending(
      entry.isArchived
        ? {
            title: t`Unarchive ${className}?`,
            description: t`The class is active again: its code admits students and it can be chosen for quizzes again.`,
            confirmLabel: t`Unarchive`,
            run: () => change.mutate('unarchive'),
          }
        : {
            title: t`Archive ${className}?`,
            description: t`Its code stops admitting students and it leaves the class pickers. Its students, quizzes and resources stay; you can unarchive it.`,
            confirmLabel: t({ comment: 'Button: archive the class', message: 'Archive' }),
            run: () => change.mutate('archive'),
          },
    );
  return (
    <>
      <Button variant="secondary" disabled={change.isPending} onClick={ask}>
        {entry.isArchived ? (
          <ArchiveRestore className="size-4" aria-hidden="true" />
        ) : (
          <Archive className="size-4" aria-hidden="true" />
        )}
        {entry.isArchived ? t`Unarchive class` : t`Archive class`}
      </Button>
      {pending ? <PendingChangeConfirm pending={pending} onClose={() => setPending(null)} /> : null}
    </>
  );
}
