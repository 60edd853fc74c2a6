import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast/headless';
import type { UntaughtClass } from '#shared/classes';
import {
  assignClassTeacher,
  changeStaff,
  createInvitation,
  removeDemoSchool,
  renameSchool,
  revokeInvitation,
} from '#shared/contract/school';
import {
  createInvitationSchema,
  renameSchoolSchema,
  SCHOOL_LIMITS,
  type Invitation,
  type InvitationState,
  type StaffChange,
  type StaffMember,
} from '#shared/school';
import { useEndpointForm } from '../../components/form/use-endpoint-form.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { PendingChangeConfirm, type PendingChange } from '../../components/ui/confirm-dialog.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { LoadMoreButton } from '../../components/ui/load-more-button.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { EmptyState, LoadFailure } from '../../components/ui/status-cards.tsx';
import { call } from '../../lib/api.ts';
import { clearSession } from '../../lib/session.ts';
import { formatDay } from '../../lib/format.ts';
import { usePagedList, type PagedList } from '../../lib/paged-list.ts';
import { classQueries } from '../classes/classes-queries.ts';
import { profileQueries, useProfile } from '../session/profile.ts';
import { schoolQueries } from './school-queries.ts';
import { Badge, StaffTable } from '../../components/staff-table.tsx';

/**
 * /dashboard/teacher/staff (decision 030): the administrator's school, its name, the
 * invitations that let teachers join, and the teachers with their role and state.
 */
export function Component() {
  const profile = useProfile('teacher');
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-8">
      <PageTitle>Staff</PageTitle>
      <PageHeader title="Staff" description="Your school, the invitations that let teachers join, and its teachers." />
      {profile?.isAdministrator ? (
        <>
          <SchoolNameSection />
          <DemoSection />
          <InviteSection />
          <InvitationsSection />
          <TeachersSection ownId={profile._id} />
          <UntaughtClassesSection />
        </>
      ) : (
        <Card tone="empty" role="status">
          <ShieldAlert className="mx-auto mb-2 size-8" aria-hidden="true" />
          <p className="font-semibold text-fg">Only administrators can manage the staff</p>
          <p className="mt-1 text-sm">Ask your school&apos;s administrator to invite a teacher or to change a role.</p>
        </Card>
      )}
    </div>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  const id = `staff-${title.toLowerCase().replaceAll(' ', '-')}`;
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-lg font-semibold text-fg">
        {title}
      </h2>
      {children}
    </section>
  );
}

function SchoolNameSection() {
  const queryClient = useQueryClient();
  const status = useQuery(schoolQueries.status());
  const form = useEndpointForm({
    schema: renameSchoolSchema,
    onSubmit: async (_name, { body }) => {
      const { message, data } = await call(renameSchool, { body });
      toast.success(message);
      queryClient.setQueryData(schoolQueries.status().queryKey, data);
    },
  });
  return (
    <Section title="School">
      <Card padding="md">
        {status.data ? (
          <form {...form.formProps} className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <TextField
              label="School name"
              {...form.field('name')}
              // A new key when the name changes elsewhere: the field shows what the server holds.
              key={status.data.name}
              defaultValue={status.data.name ?? ''}
              maxLength={SCHOOL_LIMITS.name}
              className="flex-1"
              required
            />
            <Button type="submit" variant="secondary" disabled={form.isSubmitting}>
              Rename
            </Button>
          </form>
        ) : (
          <LoadingStatus>Loading the school…</LoadingStatus>
        )}
      </Card>
    </Section>
  );
}

/**
 * The demo school's accounts, shown while they are there (decision 050): one button removes
 * them and everything they made, after asking. Where only the demo was there, the school goes
 * too, with this session: the server is back at its first run.
 */
function DemoSection() {
  const queryClient = useQueryClient();
  const status = useQuery(schoolQueries.status());
  const [pending, setPending] = useState<PendingChange | null>(null);
  // A refusal (DEMO_IN_USE) is the mutation cache's toast, as for the other staff changes.
  const remove = useMutation({
    mutationFn: () => call(removeDemoSchool, {}),
    onSuccess: async ({ message, data }) => {
      toast.success(message);
      if (data.schoolRemoved) {
        // The demo was the whole school, this account with it: back to the first run.
        clearSession();
        location.assign('/setup');
        return;
      }
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: schoolQueries.all }),
        queryClient.invalidateQueries({ queryKey: profileQueries.all }),
        queryClient.invalidateQueries({ queryKey: classQueries.all }),
      ]);
    },
  });
  if (!status.data?.hasDemo) return null;
  return (
    <Section title="Demo school">
      <Card padding="md" className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted">
          This server holds the demo school: its accounts have public passwords. Remove them, with their classes,
          quizzes, results and files, before the school is used for real.
        </p>
        <Button
          variant="danger"
          disabled={remove.isPending}
          onClick={() =>
            setPending({
              title: 'Remove the demo school?',
              description:
                'Its 2 teachers, 16 students, 2 classes and their quizzes, attempts, resources and files are deleted. Accounts and classes of your own stay. This cannot be undone.',
              confirmLabel: 'Remove the demo',
              run: () => remove.mutate(),
            })
          }
        >
          Remove the demo
        </Button>
      </Card>
      {pending ? <PendingChangeConfirm pending={pending} onClose={() => setPending(null)} /> : null}
    </Section>
  );
}

/** The address a new teacher opens: the code is in this answer only, so the link is shown once. */
const invitationLinkOf = (code: string) => `${location.origin}/auth/teacher/register?invitation=${code}`;

function InviteSection() {
  const queryClient = useQueryClient();
  const [link, setLink] = useState<string | null>(null);
  const form = useEndpointForm({
    schema: createInvitationSchema,
    onSubmit: async (_invitation, { body, form: element }) => {
      const { message, data } = await call(createInvitation, { body });
      toast.success(message);
      setLink(invitationLinkOf(data.code));
      element.reset();
      await queryClient.invalidateQueries({ queryKey: schoolQueries.invitations().queryKey });
    },
  });
  const handleCopy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link);
      toast.success('Link copied');
    } catch {
      toast.error('The link could not be copied: select it and copy it by hand.');
    }
  };
  return (
    <Section title="Invite a teacher">
      <Card padding="md" className="flex flex-col gap-4">
        <form {...form.formProps} className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <TextField
            label="Note (optional)"
            hint="Who it is for, so the list below says whose invitation it is."
            {...form.field('note')}
            maxLength={SCHOOL_LIMITS.invitationNote}
            className="flex-1"
          />
          <Button type="submit" disabled={form.isSubmitting} className="sm:mb-6">
            Create invitation link
          </Button>
        </form>
        {link ? (
          <div role="status" className="rounded-lg border border-warning-line bg-warning-soft p-4 text-sm text-warning">
            <p className="font-semibold">
              Send this link to the teacher. It is shown only once and expires in {SCHOOL_LIMITS.invitationDays} days.
            </p>
            <div className="mt-3 flex flex-col gap-2 sm:flex-row">
              <label htmlFor="invitation-link" className="sr-only">
                Invitation link
              </label>
              <input
                id="invitation-link"
                readOnly
                value={link}
                onFocus={(event) => event.currentTarget.select()}
                className="min-w-0 flex-1 rounded-lg border border-line-strong bg-surface px-3 py-2 font-mono text-xs text-fg"
              />
              <Button variant="secondary" onClick={() => void handleCopy()}>
                <Copy className="size-4" aria-hidden="true" />
                Copy
              </Button>
            </div>
          </div>
        ) : null}
      </Card>
    </Section>
  );
}

/** A change to the staff: the server's refusal (LAST_ADMINISTRATOR) is the cache's toast. */
function useStaffMutation<T>(send: (input: T) => Promise<{ message: string }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: async ({ message }) => {
      toast.success(message);
      // Removing one's own administration changes the menu too.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: schoolQueries.all }),
        queryClient.invalidateQueries({ queryKey: profileQueries.all }),
        // A class given a teacher (perhaps the administrator) is in that teacher's classes now.
        queryClient.invalidateQueries({ queryKey: classQueries.all }),
      ]);
    },
    // Refused because another administrator was quicker: the list shows the class gone.
    onError: () => queryClient.invalidateQueries({ queryKey: schoolQueries.all }),
  });
}

function ListStatus<T>({
  list,
  what,
  empty,
  children,
}: {
  list: PagedList<T>;
  what: string;
  empty: string;
  children: React.ReactNode;
}) {
  if (list.isPending) return <LoadingStatus>Loading the {what}…</LoadingStatus>;
  if (list.isError && list.items.length === 0)
    return (
      <LoadFailure
        title={`The ${what} could not be loaded.`}
        message={list.error.message}
        onRetry={() => void list.refetch()}
      />
    );
  if (list.items.length === 0) return <EmptyState title={empty} />;
  return (
    <>
      {children}
      <LoadMoreButton list={list} className="mt-2" />
    </>
  );
}

const INVITATION_TONES: Record<InvitationState, Parameters<typeof Badge>[0]['tone']> = {
  pending: 'warning',
  used: 'success',
  expired: 'neutral',
  revoked: 'danger',
};

function InvitationsSection() {
  const list = usePagedList(schoolQueries.invitations());
  const [pending, setPending] = useState<PendingChange | null>(null);
  const revoke = useStaffMutation((id: string) => call(revokeInvitation, { params: { id } }));
  const askRevoke = (invitation: Invitation) =>
    setPending({
      title: 'Revoke this invitation?',
      description: `${invitation.note || 'The invitation'} can no longer be used to register. This cannot be undone.`,
      confirmLabel: 'Revoke',
      run: () => revoke.mutate(invitation._id),
    });
  return (
    <Section title="Invitations">
      <ListStatus list={list} what="invitations" empty="No invitations yet">
        <StaffTable
          caption="Invitations, newest first"
          headers={['Note', 'State', 'Created', 'Expires', 'Used by', 'Actions']}
          rows={list.items.map((invitation) => ({
            key: invitation._id,
            heading: invitation.note || <span className="font-normal text-muted">No note</span>,
            cells: [
              <Badge key="state" tone={INVITATION_TONES[invitation.state]}>
                {invitation.state}
              </Badge>,
              formatDay(invitation.createdAt),
              formatDay(invitation.expiresAt),
              invitation.usedBy?.name ?? '—',
              invitation.state === 'pending' ? (
                <Button
                  key="revoke"
                  size="sm"
                  variant="secondary"
                  disabled={revoke.isPending}
                  aria-label={`Revoke ${invitation.note || 'invitation'} (created ${formatDay(invitation.createdAt)})`}
                  onClick={() => askRevoke(invitation)}
                >
                  Revoke
                </Button>
              ) : null,
            ],
          }))}
        />
      </ListStatus>
      {pending ? (
        <PendingChangeConfirm pending={pending} widthClassName="max-w-md" onClose={() => setPending(null)} />
      ) : null}
    </Section>
  );
}

const CHANGE_QUESTIONS: Record<StaffChange, (name: string) => Omit<PendingChange, 'run'>> = {
  deactivate: (name) => ({
    title: `Deactivate ${name}?`,
    description: `${name} is signed out on every device at once and cannot sign in until reactivated. Their quizzes and resources stay.`,
    confirmLabel: 'Deactivate',
  }),
  reactivate: (name) => ({
    title: `Reactivate ${name}?`,
    description: `${name} can sign in again.`,
    confirmLabel: 'Reactivate',
  }),
  'make-administrator': (name) => ({
    title: `Make ${name} an administrator?`,
    description: `${name} can then invite teachers, change roles and deactivate accounts, yours too.`,
    confirmLabel: 'Make administrator',
  }),
  'remove-administrator': (name) => ({
    title: `Remove ${name}'s administration?`,
    description: `${name} stays a teacher but can no longer manage the staff.`,
    confirmLabel: 'Remove administrator',
  }),
};

const CHANGE_LABELS: Record<StaffChange, string> = {
  deactivate: 'Deactivate',
  reactivate: 'Reactivate',
  'make-administrator': 'Make administrator',
  'remove-administrator': 'Remove administrator',
};

function TeachersSection({ ownId }: { ownId: string }) {
  const list = usePagedList(schoolQueries.staff());
  const [pending, setPending] = useState<PendingChange | null>(null);
  const change = useStaffMutation(({ id, kind }: { id: string; kind: StaffChange }) =>
    call(changeStaff[kind], { params: { id } }),
  );
  const changesOf = (teacher: StaffMember): StaffChange[] => [
    teacher.isActive ? 'deactivate' : 'reactivate',
    teacher.isAdministrator ? 'remove-administrator' : 'make-administrator',
  ];
  return (
    <Section title="Teachers">
      <ListStatus list={list} what="teachers" empty="No teachers yet">
        <StaffTable
          caption="Teachers, by name"
          headers={['Name', 'Email', 'Subject', 'State', 'Actions']}
          rows={list.items.map((teacher) => ({
            key: teacher._id,
            heading: (
              <span className="flex flex-wrap items-center gap-2">
                {teacher.name}
                {teacher._id === ownId ? <span className="font-normal text-muted">(you)</span> : null}
                {teacher.isAdministrator ? <Badge tone="brand">Administrator</Badge> : null}
              </span>
            ),
            cells: [
              teacher.email,
              teacher.subject,
              <Badge key="state" tone={teacher.isActive ? 'success' : 'neutral'}>
                {teacher.isActive ? 'Active' : 'Deactivated'}
              </Badge>,
              <span key="actions" className="flex gap-2">
                {changesOf(teacher).map((kind) => (
                  <Button
                    key={kind}
                    size="sm"
                    variant="secondary"
                    disabled={change.isPending}
                    aria-label={`${CHANGE_LABELS[kind]}: ${teacher.name}`}
                    onClick={() =>
                      setPending({
                        ...CHANGE_QUESTIONS[kind](teacher.name),
                        run: () => change.mutate({ id: teacher._id, kind }),
                      })
                    }
                  >
                    {CHANGE_LABELS[kind]}
                  </Button>
                ))}
              </span>,
            ],
          }))}
        />
      </ListStatus>
      {pending ? (
        <PendingChangeConfirm pending={pending} widthClassName="max-w-md" onClose={() => setPending(null)} />
      ) : null}
    </Section>
  );
}

/**
 * Classes no teacher teaches (a class only students named before issue 19, decision 031): the
 * administrator gives each an active teacher, who becomes its owner and can add co-teachers.
 */
function UntaughtClassesSection() {
  const list = usePagedList(schoolQueries.untaughtClasses());
  const colleagues = useQuery(classQueries.colleagues());
  const assign = useStaffMutation(({ id, teacherId }: { id: string; teacherId: string }) =>
    call(assignClassTeacher, { params: { id }, body: { teacherId } }),
  );
  return (
    <Section title="Classes without a teacher">
      <p className="text-sm text-muted">
        Classes only students named, or whose teachers were all deactivated. The teacher you choose becomes the
        class&apos;s owner and can add co-teachers.
      </p>
      <ListStatus list={list} what="classes" empty="Every class has a teacher">
        <StaffTable
          caption="Classes without a teacher, by name"
          headers={['Class', 'Subject', 'Students', 'Teacher']}
          rows={list.items.map((entry) => ({
            key: entry._id,
            heading: (
              <span className="flex flex-wrap items-center gap-2">
                {entry.name}
                {entry.isArchived ? <Badge tone="neutral">Archived</Badge> : null}
              </span>
            ),
            cells: [
              entry.subject ?? '—',
              entry.studentCount,
              <AssignTeacher
                key="assign"
                entry={entry}
                choices={colleagues.data ?? []}
                isLoading={colleagues.isPending}
                isBusy={assign.isPending}
                onAssign={(teacherId) => assign.mutate({ id: entry._id, teacherId })}
              />,
            ],
          }))}
        />
      </ListStatus>
    </Section>
  );
}

function AssignTeacher({
  entry,
  choices,
  isLoading,
  isBusy,
  onAssign,
}: {
  entry: UntaughtClass;
  choices: { _id: string; name: string }[];
  isLoading: boolean;
  isBusy: boolean;
  onAssign: (teacherId: string) => void;
}) {
  const [teacherId, setTeacherId] = useState('');
  return (
    <form
      className="flex gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (teacherId) onAssign(teacherId);
      }}
    >
      <select
        aria-label={`Teacher for ${entry.name}`}
        value={teacherId}
        onChange={(event) => setTeacherId(event.target.value)}
        className="min-h-9 rounded-lg border border-line-strong bg-surface px-2 text-sm text-fg"
      >
        <option value="">{isLoading ? 'Loading the teachers…' : 'Choose a teacher'}</option>
        {choices.map((colleague) => (
          <option key={colleague._id} value={colleague._id}>
            {colleague.name}
          </option>
        ))}
      </select>
      <Button
        type="submit"
        size="sm"
        variant="secondary"
        disabled={isBusy || !teacherId}
        aria-label={`Assign the teacher to ${entry.name}`}
      >
        Assign
      </Button>
    </form>
  );
}
