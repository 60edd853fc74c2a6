import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Paperclip, Save, X } from 'lucide-react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { ASSIGNMENT_LIMITS, editAssignmentSchema, newAssignmentSchema } from '#shared/assignments';
import { MarkdownField } from '../../components/markdown-field.tsx';
import { useEndpointForm } from '../../components/form/use-endpoint-form.ts';
import { Button } from '../../components/ui/button.tsx';
import { cardVariants } from '../../components/ui/card.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { ApiError } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { formatNumber } from '../../lib/format.ts';
import { formatTimeZone } from '../../lib/time-zone-names.ts';
import { myClassesQuery } from '../classes/my-classes-query.ts';
import { assignmentFieldOf, bodyOfDraft, type AssignmentDraft } from './assignment-draft.ts';
import { useSchoolTimeZone } from './assignment-time.ts';
import { runtimeTimeZone } from '#shared/time-zones';
import { AttachmentIcon } from './teacher-assignment-list.tsx';
import { CheckField } from './teacher-check-field.tsx';

// Loads when the teacher asks to attach from the library (scripts/check-bundle.mjs, LOADED_ON_USER_ACTION).
const AttachmentPicker = lazy(async () => ({
  default: (await import('./teacher-attachment-picker.tsx')).AttachmentPicker,
}));

/** What an edit must keep once work was handed in (decision 058): the classes it had, its points, its publish time. */
export type AssignmentLocks = { classIds: readonly string[] } | null;

type Stored = { _id: string; version: number; classes: { _id: string; name: string }[] };

/** A card of the editor, titled for assistive technology. */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={cn(cardVariants(), 'flex flex-col gap-4 p-4 sm:p-6')}>
      <h2 id={id} className="text-lg font-semibold text-fg">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * The assignment editor (decision 063), one form for a new assignment and an edit: title,
 * instructions in Markdown, classes, points or ungraded, due time and publish time on the
 * school's clock, late work, attachments from the library. `stored` is the assignment being
 * edited (its version goes with the save); `locks`, once work was handed in, disables what may no
 * longer change. `draft` lives with the screen, so a reload after a conflict keeps the writing.
 */
export function AssignmentForm({
  draft,
  onChange,
  stored,
  locks,
  submitLabel,
  onSave,
}: {
  draft: AssignmentDraft;
  onChange(update: (draft: AssignmentDraft) => AssignmentDraft): void;
  stored?: Stored;
  locks: AssignmentLocks;
  submitLabel: string;
  onSave(body: ReturnType<typeof bodyOfDraft> & { version?: number }): Promise<void>;
}) {
  const { t } = useLingui();
  const classes = useQuery(myClassesQuery());
  // The school's clock (decision 062); the editor page waits for it before showing a stored one.
  const zone = useSchoolTimeZone() ?? runtimeTimeZone();
  const [isPickerOpen, setIsPickerOpen] = useState(false);
  const form = useEndpointForm({
    schema: stored ? editAssignmentSchema : newAssignmentSchema,
    toBody: () => ({ ...bodyOfDraft(draft, zone), ...(stored ? { version: stored.version } : {}) }),
    fieldOf: assignmentFieldOf,
    labels: { dueAt: t`Due`, publishAt: t`Publish on` },
    onSubmit: async (_data, { body }) => onSave(body),
  });
  const set = <K extends keyof AssignmentDraft>(key: K, value: AssignmentDraft[K]) =>
    onChange((current) => ({ ...current, [key]: value }));
  const isLocked = locks !== null;
  const zoneName = formatTimeZone(zone);
  const zoneHint = t`In the school’s time zone: ${zoneName}.`;

  // Active classes to choose from, and those the assignment is already for (an archived one stays listed).
  const active = (classes.data ?? []).filter((taught) => !taught.isArchived);
  const choices = [
    ...active,
    ...(stored?.classes ?? []).filter((taught) => !active.some((entry) => entry._id === taught._id)),
  ];
  const toggleClass = (classId: string, isOn: boolean) =>
    onChange((current) => ({
      ...current,
      classIds: isOn ? [...current.classIds, classId] : current.classIds.filter((id) => id !== classId),
    }));
  const classesError = form.errors['classIds'];
  const attachmentsError = form.errors['attachments'];
  const isFull = draft.attachments.length >= ASSIGNMENT_LIMITS.attachmentsMax;
  const pointsMax = formatNumber(ASSIGNMENT_LIMITS.pointsMax);
  const half = formatNumber(0.5);
  const example = formatNumber(1.5);

  return (
    <form {...form.formProps} className="mt-6 flex flex-col gap-6">
      {isLocked ? (
        <p role="note" className="rounded-lg border border-line bg-surface-muted p-4 text-sm text-fg">
          <Trans>
            Students have handed in work, so the points, the publish time and the classes it already has can no longer
            change. You can still change the title, the instructions, the due time, late work and the attachments, and
            add classes.
          </Trans>
        </p>
      ) : null}

      <Section id="assignment-work-heading" title={t`The work`}>
        <TextField
          label={t`Title`}
          {...form.field('title')}
          value={draft.title}
          onChange={(event) => set('title', event.target.value)}
          required
          autoComplete="off"
          maxLength={ASSIGNMENT_LIMITS.title}
        />
        <MarkdownField
          label={t`Instructions`}
          {...form.field('instructions')}
          limit={ASSIGNMENT_LIMITS.instructions}
          value={draft.instructions}
          onChange={(value) => set('instructions', value)}
          hint={t`Markdown: **bold**, *italic*, lists and links. Students see it formatted.`}
        />
        <div className="flex flex-col gap-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 className="text-sm font-medium text-fg">
              <Trans>Attachments</Trans>
            </h3>
            <Button
              variant="secondary"
              size="sm"
              data-field="attachments"
              aria-describedby={attachmentsError ? 'assignment-attachments-error' : undefined}
              disabled={isFull}
              onClick={() => setIsPickerOpen(true)}
            >
              <Paperclip className="size-4" aria-hidden="true" />
              <Trans>Attach from library</Trans>
            </Button>
          </div>
          {draft.attachments.length === 0 ? (
            <p className="text-sm text-muted">{t`No attachments.`}</p>
          ) : (
            <ul className="flex flex-col divide-y divide-line rounded-lg border border-line">
              {draft.attachments.map((attachment) => {
                const name = attachment.fileName;
                return (
                  <li key={attachment._id} className="flex items-center gap-3 px-3 py-2">
                    <AttachmentIcon kind={attachment.kind} />
                    <span className="min-w-0 flex-1 truncate text-sm text-fg">{name}</span>
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={t`Remove ${name}`}
                      onClick={() =>
                        onChange((current) => ({
                          ...current,
                          attachments: current.attachments.filter((item) => item._id !== attachment._id),
                        }))
                      }
                    >
                      <X className="size-4" aria-hidden="true" />
                    </Button>
                  </li>
                );
              })}
            </ul>
          )}
          {attachmentsError ? (
            <p id="assignment-attachments-error" className="text-sm text-danger">
              {attachmentsError}
            </p>
          ) : null}
        </div>
      </Section>

      <Section id="assignment-classes-heading" title={t`Classes`}>
        <fieldset aria-describedby={classesError ? 'assignment-classes-error' : undefined}>
          <legend className="text-sm text-muted">{t`The students of every class you choose get it.`}</legend>
          {classes.isPending ? (
            <p className="mt-2 text-sm text-muted">{t`Loading your classes…`}</p>
          ) : (
            <div className="mt-3 grid gap-2 sm:grid-cols-2">
              {choices.map((taught, index) => {
                const isChosen = draft.classIds.includes(taught._id);
                const isKept = locks?.classIds.includes(taught._id) ?? false;
                return (
                  <CheckField
                    key={taught._id}
                    name="classIds"
                    {...(index === 0 ? { dataField: 'classIds' } : {})}
                    label={taught.name}
                    checked={isChosen}
                    disabled={isKept && isChosen}
                    onChange={(isOn) => toggleClass(taught._id, isOn)}
                  />
                );
              })}
            </div>
          )}
        </fieldset>
        {classesError ? (
          <p id="assignment-classes-error" className="text-sm text-danger">
            {classesError}
          </p>
        ) : null}
      </Section>

      <Section id="assignment-grading-heading" title={t`Grading and dates`}>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="flex flex-col gap-3">
            <CheckField
              label={t`Graded with points`}
              checked={draft.isGraded}
              disabled={isLocked}
              onChange={(isOn) => set('isGraded', isOn)}
            />
            {draft.isGraded ? (
              <TextField
                label={t`Points`}
                {...form.field('points')}
                value={draft.points}
                onChange={(event) => set('points', event.target.value)}
                disabled={isLocked}
                inputMode="decimal"
                autoComplete="off"
                required
                hint={t`${half} to ${pointsMax}, in halves (${example}).`}
              />
            ) : (
              <p className="text-sm text-muted">{t`Ungraded: you give feedback only.`}</p>
            )}
          </div>
          <div className="flex flex-col gap-3">
            <TextField
              label={t`Due`}
              {...form.field('dueAt')}
              type="datetime-local"
              value={draft.due}
              onChange={(event) => set('due', event.target.value)}
              hint={t`Optional. ${zoneHint}`}
            />
            <CheckField
              label={t`Accept work handed in after the due time (marked late)`}
              checked={draft.acceptLate}
              onChange={(isOn) => set('acceptLate', isOn)}
            />
          </div>
          <div className="flex flex-col gap-3 sm:col-span-2">
            <CheckField
              label={t`Publish later`}
              checked={draft.isPublishedLater}
              disabled={isLocked}
              onChange={(isOn) => set('isPublishedLater', isOn)}
            />
            {draft.isPublishedLater ? (
              <TextField
                className="sm:max-w-[50%]"
                label={t`Publish on`}
                {...form.field('publishAt')}
                type="datetime-local"
                value={draft.publish}
                onChange={(event) => set('publish', event.target.value)}
                disabled={isLocked}
                required
                hint={t`Students see it from then on. ${zoneHint}`}
              />
            ) : null}
          </div>
        </div>
      </Section>

      <div className="flex justify-end border-t border-line pt-6">
        <Button type="submit" disabled={form.isSubmitting}>
          <Save className="size-4" aria-hidden="true" />
          {submitLabel}
        </Button>
      </div>

      {isPickerOpen ? (
        <Suspense fallback={null}>
          <AttachmentPicker
            attached={draft.attachments}
            classes={choices.filter((taught) => draft.classIds.includes(taught._id))}
            isFull={isFull}
            onAttach={(attachment) =>
              onChange((current) => ({ ...current, attachments: [...current.attachments, attachment] }))
            }
            onClose={() => setIsPickerOpen(false)}
          />
        </Suspense>
      ) : null}
    </form>
  );
}

/** Whether a save failed because another editor saved first. */
export const isChangedElsewhere = (error: unknown) => error instanceof ApiError && error.code === 'ASSIGNMENT_CHANGED';
