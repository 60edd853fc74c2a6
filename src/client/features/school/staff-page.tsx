import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, ShieldAlert } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast/headless';
import type { AssignedClass, UntaughtClass } from '#shared/classes';
import {
  assignClassTeacher,
  changeStaff,
  createInvitation,
  removeDemoSchool,
  renameSchool,
  revokeInvitation,
  setSchoolLanguage,
  setSchoolTimeZone,
} from '#shared/contract/school';
import { supportedTimeZones } from '#shared/time-zones';
import { isLocale, type Locale } from '#shared/locales';
import { LocaleOptions } from '../../components/language-switcher.tsx';
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
import { call, type ApiResult } from '../../lib/api.ts';
import { clearSession } from '../../lib/session.ts';
import { formatDay, formatNumber } from '../../lib/format.ts';
import { formatTimeZone } from '../../lib/time-zone-names.ts';
import { usePagedList, type PagedList } from '../../lib/paged-list.ts';
import { classQueries } from '../classes/classes-queries.ts';
import { profileQueries, useProfile } from '../session/profile.ts';
import { schoolQueries } from './school-queries.ts';
import { Badge, StaffTable } from '../../components/staff-table.tsx';

/** The school's default language (issue 32): for everyone who has not chosen their own. */
function SchoolLanguageSection() {
  const queryClient = useQueryClient();
  const status = useQuery(schoolQueries.status());
  const { t } = useLingui();
  const id = useId();
  const [isSaving, setIsSaving] = useState(false);
  const choose = async (defaultLocale: Locale) => {
    setIsSaving(true);
    try {
      const { data } = await call(setSchoolLanguage, { body: { defaultLocale } });
      queryClient.setQueryData(schoolQueries.status().queryKey, data);
      // An administrator on "Automatic" now reads the school's new language (decision 055 addendum).
      await queryClient.invalidateQueries({ queryKey: profileQueries.all });
      toast.success(t`The school's language was saved`);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : t`Something went wrong`);
    } finally {
      setIsSaving(false);
    }
  };
  return (
    <Section title={t`Language`}>
      <Card padding="md">
        <label htmlFor={id} className="block text-sm font-semibold text-fg">
          {t`The school's language`}
        </label>
        <p className="mt-1 text-sm text-muted">
          {t`StudyHall speaks it to everyone signed in who has not chosen a language in their account, and on the sign-in pages to browsers that ask for none of its languages.`}
        </p>
        <select
          id={id}
          value={status.data?.defaultLocale ?? ''}
          disabled={isSaving || !status.data}
          onChange={(event) => isLocale(event.target.value) && void choose(event.target.value)}
          className="mt-2 w-full max-w-xs rounded-lg border border-line bg-surface px-3 py-2 text-fg"
        >
          <LocaleOptions />
        </select>
      </Card>
    </Section>
  );
}

/** The school's time zone (decision 062): the one due dates are entered and shown in. */
function SchoolTimeZoneSection() {
  const queryClient = useQueryClient();
  const status = useQuery(schoolQueries.status());
  const { t } = useLingui();
  const id = useId();
  const [isSaving, setIsSaving] = useState(false);
  const zones = supportedTimeZones();
  const current = status.data?.timeZone ?? '';
  const choose = async (timeZone: string) => {
    setIsSaving(true);
    try {
      const { data } = await call(setSchoolTimeZone, { body: { timeZone } });
      queryClient.setQueryData(schoolQueries.status().queryKey, data);
      toast.success(t`The school's time zone was saved`);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : t`Something went wrong`);
    } finally {
      setIsSaving(false);
    }
  };
  return (
    <Section title={t`Time zone`}>
      <Card padding="md">
        <label htmlFor={id} className="block text-sm font-semibold text-fg">
          {t`The school's time zone`}
        </label>
        <p className="mt-1 text-sm text-muted">
          {t`Due dates are entered and shown in this time zone, wherever teachers and students are.`}
        </p>
        <select
          id={id}
          value={current}
          disabled={isSaving || !status.data}
          onChange={(event) => void choose(event.target.value)}
          className="mt-2 w-full max-w-md rounded-lg border border-line bg-surface px-3 py-2 text-fg"
        >
          {current && !zones.includes(current) ? <option value={current}>{formatTimeZone(current)}</option> : null}
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {formatTimeZone(zone)}
            </option>
          ))}
        </select>
      </Card>
    </Section>
  );
}

/**
 * /dashboard/teacher/staff (decision 030): the administrator's school, its name, the
 * invitations that let teachers join, and the teachers with their role and state.
 */
export function Component() {
  const profile = useProfile('teacher');
  const { t } = useLingui();
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-8">
      <PageTitle>{t`Staff`}</PageTitle>
      <PageHeader
        title={t`Staff`}
        description={t`Your school, the invitations that let teachers join, and its teachers.`}
      />
      {profile?.isAdministrator ? (
        <>
          <SchoolNameSection />
          <SchoolLanguageSection />
          <SchoolTimeZoneSection />
          <DemoSection />
          <InviteSection />
          <InvitationsSection />
          <TeachersSection ownId={profile._id} />
          <UntaughtClassesSection />
        </>
      ) : (
        <Card tone="empty" role="status">
          <ShieldAlert className="mx-auto mb-2 size-8" aria-hidden="true" />
          <p className="font-semibold text-fg">
            <Trans>Only administrators can manage the staff</Trans>
          </p>
          <p className="mt-1 text-sm">
            <Trans>Ask your school&apos;s administrator to invite a teacher or to change a role.</Trans>
          </p>
        </Card>
      )}
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
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
  const { t } = useLingui();
  const form = useEndpointForm({
    schema: renameSchoolSchema,
    onSubmit: async (_name, { body }) => {
      const { data } = await call(renameSchool, { body });
      toast.success(t`School renamed`);
      queryClient.setQueryData(schoolQueries.status().queryKey, data);
    },
  });
  return (
    <Section title={t`School`}>
      <Card padding="md">
        {status.data ? (
          <form {...form.formProps} className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <TextField
              label={t`School name`}
              {...form.field('name')}
              // A new key when the name changes elsewhere: the field shows what the server holds.
              key={status.data.name}
              defaultValue={status.data.name ?? ''}
              maxLength={SCHOOL_LIMITS.name}
              className="flex-1"
              required
            />
            <Button type="submit" variant="secondary" disabled={form.isSubmitting}>
              <Trans>Rename</Trans>
            </Button>
          </form>
        ) : (
          <LoadingStatus>
            <Trans>Loading the school…</Trans>
          </LoadingStatus>
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
  const { t } = useLingui();
  // A refusal (DEMO_IN_USE) is the mutation cache's toast, as for the other staff changes.
  const remove = useMutation({
    mutationFn: () => call(removeDemoSchool, {}),
    onSuccess: async ({ data }) => {
      if (data.schoolRemoved) {
        toast.success(t`The demo has been removed: set the school up again with the code in the server’s log`);
        // The demo was the whole school, this account with it: back to the first run.
        clearSession();
        location.assign('/setup');
        return;
      }
      toast.success(t`The demo has been removed`);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: schoolQueries.all }),
        queryClient.invalidateQueries({ queryKey: profileQueries.all }),
        queryClient.invalidateQueries({ queryKey: classQueries.all }),
      ]);
    },
  });
  if (!status.data?.hasDemo) return null;
  return (
    <Section title={t`Demo school`}>
      <Card padding="md" className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted">
          <Trans>
            This server holds the demo school: its accounts have public passwords. Remove them, with their classes,
            quizzes, results and files, before the school is used for real.
          </Trans>
        </p>
        <Button
          variant="danger"
          disabled={remove.isPending}
          onClick={() =>
            setPending({
              title: t`Remove the demo school?`,
              description: t`Its 2 teachers, 16 students, 2 classes and their quizzes, attempts, resources and files are deleted. Accounts and classes of your own stay. This cannot be undone.`,
              confirmLabel: t`Remove the demo`,
              run: () => remove.mutate(),
            })
          }
        >
          <Trans>Remove the demo</Trans>
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
  const { t } = useLingui();
  const days = SCHOOL_LIMITS.invitationDays;
  const form = useEndpointForm({
    schema: createInvitationSchema,
    onSubmit: async (_invitation, { body, form: element }) => {
      const { data } = await call(createInvitation, { body });
      toast.success(t`Invitation created: copy its link now, it is shown only once`);
      setLink(invitationLinkOf(data.code));
      element.reset();
      await queryClient.invalidateQueries({ queryKey: schoolQueries.invitations().queryKey });
    },
  });
  const handleCopy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link);
      toast.success(t`Link copied`);
    } catch {
      toast.error(t`The link could not be copied: select it and copy it by hand.`);
    }
  };
  return (
    <Section title={t`Invite a teacher`}>
      <Card padding="md" className="flex flex-col gap-4">
        <form {...form.formProps} className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <TextField
            label={t`Note (optional)`}
            hint={t`Who it is for, so the list below says whose invitation it is.`}
            {...form.field('note')}
            maxLength={SCHOOL_LIMITS.invitationNote}
            className="flex-1"
          />
          <Button type="submit" disabled={form.isSubmitting} className="sm:mb-6">
            <Trans>Create invitation link</Trans>
          </Button>
        </form>
        {link ? (
          <div role="status" className="rounded-lg border border-warning-line bg-warning-soft p-4 text-sm text-warning">
            <p className="font-semibold">
              {t`Send this link to the teacher. It is shown only once and expires in ${plural(days, { one: '# day', other: '# days' })}.`}
            </p>
            <div className="mt-3 flex flex-col gap-2 sm:flex-row">
              <label htmlFor="invitation-link" className="sr-only">
                <Trans>Invitation link</Trans>
              </label>
              <input
                id="invitation-link"
                readOnly
                value={link}
                onFocus={(event) => event.currentTarget.select()}
                dir="ltr"
                className="min-w-0 flex-1 rounded-lg border border-line-strong bg-surface px-3 py-2 font-mono text-xs text-fg"
              />
              <Button variant="secondary" onClick={() => void handleCopy()}>
                <Copy className="size-4" aria-hidden="true" />
                <Trans>Copy</Trans>
              </Button>
            </div>
          </div>
        ) : null}
      </Card>
    </Section>
  );
}

/**
 * A change to the staff, and what its success toast says (the client's words, in the active
 * locale): the server's refusal (LAST_ADMINISTRATOR) is the cache's toast.
 */
function useStaffMutation<T, R>(send: (input: T) => Promise<R>, successText: (result: R) => string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: async (result) => {
      toast.success(successText(result));
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
  loading,
  failure,
  empty,
  children,
}: {
  list: PagedList<T>;
  /** "Loading the invitations…" */
  loading: string;
  /** "The invitations could not be loaded." */
  failure: string;
  empty: string;
  children: ReactNode;
}) {
  if (list.isPending) return <LoadingStatus>{loading}</LoadingStatus>;
  if (list.isError && list.items.length === 0)
    return <LoadFailure title={failure} message={list.error.message} onRetry={() => void list.refetch()} />;
  if (list.items.length === 0) return <EmptyState title={empty} />;
  return (
    <>
      {children}
      <LoadMoreButton list={list} className="mt-2" />
    </>
  );
}

/** The invitation's state as its badge says it (the state itself is the API's code). */
const INVITATION_STATES = {
  pending: msg({ comment: "An invitation's state, in a badge", message: 'pending' }),
  used: msg({ comment: "An invitation's state, in a badge", message: 'used' }),
  expired: msg({ comment: "An invitation's state, in a badge", message: 'expired' }),
  revoked: msg({ comment: "An invitation's state, in a badge", message: 'revoked' }),
} satisfies Record<InvitationState, unknown>;

const INVITATION_TONES: Record<InvitationState, Parameters<typeof Badge>[0]['tone']> = {
  pending: 'warning',
  used: 'success',
  expired: 'neutral',
  revoked: 'danger',
};

function InvitationsSection() {
  const list = usePagedList(schoolQueries.invitations());
  const [pending, setPending] = useState<PendingChange | null>(null);
  const { t, i18n } = useLingui();
  const revoke = useStaffMutation(
    (id: string) => call(revokeInvitation, { params: { id } }),
    () => t`Invitation revoked`,
  );
  const askRevoke = ({ note, _id }: Invitation) =>
    setPending({
      title: t`Revoke this invitation?`,
      description: note
        ? t`${note} can no longer be used to register. This cannot be undone.`
        : t`The invitation can no longer be used to register. This cannot be undone.`,
      confirmLabel: t`Revoke`,
      run: () => revoke.mutate(_id),
    });
  const revokeLabel = ({ note, createdAt }: Invitation) => {
    const created = formatDay(createdAt);
    return note ? t`Revoke ${note} (created ${created})` : t`Revoke invitation (created ${created})`;
  };
  return (
    <Section title={t`Invitations`}>
      <ListStatus
        list={list}
        loading={t`Loading the invitations…`}
        failure={t`The invitations could not be loaded.`}
        empty={t`No invitations yet`}
      >
        <StaffTable
          caption={t`Invitations, newest first`}
          headers={[t`Note`, t`State`, t`Created`, t`Expires`, t`Used by`, t`Actions`]}
          rows={list.items.map((invitation) => ({
            key: invitation._id,
            heading: invitation.note || (
              <span className="font-normal text-muted">
                <Trans>No note</Trans>
              </span>
            ),
            cells: [
              <Badge key="state" tone={INVITATION_TONES[invitation.state]}>
                {i18n._(INVITATION_STATES[invitation.state])}
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
                  aria-label={revokeLabel(invitation)}
                  onClick={() => askRevoke(invitation)}
                >
                  <Trans>Revoke</Trans>
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

const CHANGE_LABELS = {
  deactivate: msg`Deactivate`,
  reactivate: msg`Reactivate`,
  'make-administrator': msg`Make administrator`,
  'remove-administrator': msg`Remove administrator`,
} satisfies Record<StaffChange, unknown>;

function TeachersSection({ ownId }: { ownId: string }) {
  const list = usePagedList(schoolQueries.staff());
  const [pending, setPending] = useState<PendingChange | null>(null);
  const { t, i18n } = useLingui();
  const change = useStaffMutation(
    ({ id, kind }: { id: string; kind: StaffChange }) => call(changeStaff[kind], { params: { id } }),
    () => t`Teacher updated`,
  );
  /** The question asked before a change to `name`'s account. */
  const questionOf = (kind: StaffChange, name: string): Omit<PendingChange, 'run'> => {
    const confirmLabel = i18n._(CHANGE_LABELS[kind]);
    switch (kind) {
      case 'deactivate':
        return {
          title: t`Deactivate ${name}?`,
          description: t`${name} is signed out on every device at once and cannot sign in until reactivated. Their quizzes and resources stay.`,
          confirmLabel,
        };
      case 'reactivate':
        return { title: t`Reactivate ${name}?`, description: t`${name} can sign in again.`, confirmLabel };
      case 'make-administrator':
        return {
          title: t`Make ${name} an administrator?`,
          description: t`${name} can then invite teachers, change roles and deactivate accounts, yours too.`,
          confirmLabel,
        };
      case 'remove-administrator':
        return {
          title: t`Remove ${name}'s administration?`,
          description: t`${name} stays a teacher but can no longer manage the staff.`,
          confirmLabel,
        };
    }
  };
  const changesOf = (teacher: StaffMember): StaffChange[] => [
    teacher.isActive ? 'deactivate' : 'reactivate',
    teacher.isAdministrator ? 'remove-administrator' : 'make-administrator',
  ];
  return (
    <Section title={t`Teachers`}>
      <ListStatus
        list={list}
        loading={t`Loading the teachers…`}
        failure={t`The teachers could not be loaded.`}
        empty={t`No teachers yet`}
      >
        <StaffTable
          caption={t`Teachers, by name`}
          headers={[t`Name`, t`Email`, t`Subject`, t`State`, t`Actions`]}
          rows={list.items.map((teacher) => ({
            key: teacher._id,
            heading: (
              <span className="flex flex-wrap items-center gap-2">
                {teacher.name}
                {teacher._id === ownId ? (
                  <span className="font-normal text-muted">
                    <Trans>(you)</Trans>
                  </span>
                ) : null}
                {teacher.isAdministrator ? (
                  <Badge tone="brand">
                    <Trans>Administrator</Trans>
                  </Badge>
                ) : null}
              </span>
            ),
            cells: [
              <bdi key="email">{teacher.email}</bdi>,
              teacher.subject,
              <Badge key="state" tone={teacher.isActive ? 'success' : 'neutral'}>
                {teacher.isActive ? t`Active` : t`Deactivated`}
              </Badge>,
              <span key="actions" className="flex gap-2">
                {changesOf(teacher).map((kind) => {
                  const action = i18n._(CHANGE_LABELS[kind]);
                  const { name } = teacher;
                  return (
                    <Button
                      key={kind}
                      size="sm"
                      variant="secondary"
                      disabled={change.isPending}
                      aria-label={t({
                        comment: 'A button naming its action and the teacher it changes, e.g. "Deactivate: Ana Ruiz"',
                        message: `${action}: ${name}`,
                      })}
                      onClick={() =>
                        setPending({
                          ...questionOf(kind, name),
                          run: () => change.mutate({ id: teacher._id, kind }),
                        })
                      }
                    >
                      {action}
                    </Button>
                  );
                })}
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
  const { t } = useLingui();
  const assign = useStaffMutation(
    ({ id, teacherId }: { id: string; teacherId: string }) =>
      call(assignClassTeacher, { params: { id }, body: { teacherId } }),
    ({ data }: ApiResult<AssignedClass>) => {
      const teacher = data.teachers[0]?.name;
      const klass = data.name;
      return teacher ? t`${teacher} now teaches ${klass}` : t`The teacher now teaches ${klass}`;
    },
  );
  return (
    <Section title={t`Classes without a teacher`}>
      <p className="text-sm text-muted">
        <Trans>
          Classes only students named, or whose teachers were all deactivated. The teacher you choose becomes the
          class&apos;s owner and can add co-teachers.
        </Trans>
      </p>
      <ListStatus
        list={list}
        loading={t`Loading the classes…`}
        failure={t`The classes could not be loaded.`}
        empty={t`Every class has a teacher`}
      >
        <StaffTable
          caption={t`Classes without a teacher, by name`}
          headers={[t`Class`, t`Subject`, t`Students`, t`Teacher`]}
          rows={list.items.map((entry) => ({
            key: entry._id,
            heading: (
              <span className="flex flex-wrap items-center gap-2">
                {entry.name}
                {entry.isArchived ? (
                  <Badge tone="neutral">
                    <Trans>Archived</Trans>
                  </Badge>
                ) : null}
              </span>
            ),
            cells: [
              entry.subject ?? '—',
              formatNumber(entry.studentCount),
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
  const { t } = useLingui();
  const classTitle = entry.name;
  return (
    <form
      className="flex gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (teacherId) onAssign(teacherId);
      }}
    >
      <select
        aria-label={t`Teacher for ${classTitle}`}
        value={teacherId}
        onChange={(event) => setTeacherId(event.target.value)}
        className="min-h-9 rounded-lg border border-line-strong bg-surface px-2 text-sm text-fg"
      >
        <option value="">{isLoading ? t`Loading the teachers…` : t`Choose a teacher`}</option>
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
        aria-label={t`Assign the teacher to ${classTitle}`}
      >
        <Trans>Assign</Trans>
      </Button>
    </form>
  );
}
