import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Archive, ArchiveRestore } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import toast from 'react-hot-toast/headless';
import { useParams } from 'react-router';
import { changeClass, updateClass } from '#shared/contract/classes';
import { updateClassSchema, type TeacherClass } from '#shared/classes';
import { useEndpointForm } from '../../components/form/use-endpoint-form.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { EmptyState, LoadFailure } from '../../components/ui/status-cards.tsx';
import { call } from '../../lib/api.ts';
import { useProfile } from '../session/profile.ts';
import { Badge } from '../../components/staff-table.tsx';
import { ClassFields } from './class-parts.tsx';
import { CLASSES_PATH } from './class-paths.ts';
import { ClassRoster } from './class-roster.tsx';
import { ClassTeachers } from './class-teachers.tsx';
import { CLASS_FORM_LABELS, classQueries, putClass, useClassMutation } from './classes-queries.ts';
import { JoinCodePanel } from './join-code-panel.tsx';
import { PendingChangeConfirm, type PendingChange } from '../../components/ui/confirm-dialog.tsx';
import { BackLink } from '../../components/ui/back-link.tsx';

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

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-8 pb-16">
      <PageTitle>{entry ? `${entry.name} · Classes` : 'Class'}</PageTitle>
      <BackLink to={CLASSES_PATH} className="self-start">
        Back to classes
      </BackLink>
      {classes.isPending || !profile ? (
        <LoadingStatus>Loading the class…</LoadingStatus>
      ) : classes.isError ? (
        <LoadFailure
          title="The class could not be loaded."
          message={classes.error.message}
          onRetry={() => void classes.refetch()}
        />
      ) : !entry ? (
        <EmptyState
          title="This class is not one of yours"
          hint="It may not exist, or you no longer teach it. Your classes are listed on the Classes page."
        />
      ) : (
        <ClassScreen entry={entry} ownId={profile._id} />
      )}
    </div>
  );
}

function ClassScreen({ entry, ownId }: { entry: TeacherClass; ownId: string }) {
  return (
    <>
      <PageHeader
        className="-mt-4"
        title={
          <span className="flex flex-wrap items-center gap-3">
            {entry.name}
            {entry.isArchived ? <Badge tone="neutral">Archived</Badge> : null}
          </span>
        }
        description={entry.subject ?? 'No subject'}
        actions={<ArchiveButton entry={entry} />}
      />
      <div className="grid gap-8 lg:grid-cols-2">
        <Section title="Name and subject">
          <Card padding="md">
            <DetailsForm entry={entry} />
          </Card>
        </Section>
        <Section title="Join code">
          <Card padding="md">
            <JoinCodePanel entry={entry} />
          </Card>
        </Section>
      </div>
      <Section title="Teachers">
        <ClassTeachers entry={entry} ownId={ownId} />
      </Section>
      <Section title="Students">
        <ClassRoster entry={entry} />
      </Section>
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `class-${title.toLowerCase().replaceAll(' ', '-')}`;
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
  const form = useEndpointForm({
    schema: updateClassSchema,
    labels: CLASS_FORM_LABELS,
    onSubmit: async (_input, { body }) => {
      const { message, data } = await call(updateClass, { params: { id: entry._id }, body });
      toast.success(message);
      putClass(queryClient, data);
      await queryClient.invalidateQueries({ queryKey: classQueries.all });
    },
  });
  return (
    // A new key when the class changes elsewhere: the fields show what the server holds.
    <form key={`${entry.name}\n${entry.subject}`} {...form.formProps} className="flex flex-col gap-3">
      <ClassFields form={form} defaults={entry} />
      <Button type="submit" variant="secondary" disabled={form.isSubmitting} className="self-start">
        Save
      </Button>
    </form>
  );
}

function ArchiveButton({ entry }: { entry: TeacherClass }) {
  const [pending, setPending] = useState<PendingChange | null>(null);
  const change = useClassMutation((kind: 'archive' | 'unarchive') =>
    call(changeClass[kind], { params: { id: entry._id } }),
  );
  const ask = () =>
    setPending(
      entry.isArchived
        ? {
            title: `Unarchive ${entry.name}?`,
            description: 'The class is active again: its code admits students and it can be chosen for quizzes again.',
            confirmLabel: 'Unarchive',
            run: () => change.mutate('unarchive'),
          }
        : {
            title: `Archive ${entry.name}?`,
            description:
              'Its code stops admitting students and it leaves the class pickers. Its students, quizzes and resources stay; you can unarchive it.',
            confirmLabel: 'Archive',
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
        {entry.isArchived ? 'Unarchive class' : 'Archive class'}
      </Button>
      {pending ? <PendingChangeConfirm pending={pending} onClose={() => setPending(null)} /> : null}
    </>
  );
}
