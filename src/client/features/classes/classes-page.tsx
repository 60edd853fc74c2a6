import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ChevronRight } from 'lucide-react';
import toast from 'react-hot-toast/headless';
import { Link } from 'react-router';
import { createClass } from '#shared/contract/classes';
import { createClassSchema, type TeacherClass } from '#shared/classes';
import { useEndpointForm } from '../../components/form/use-endpoint-form.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, cardVariants } from '../../components/ui/card.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { call } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { formatList } from '../../lib/format.ts';
import { Badge } from '../../components/staff-table.tsx';
import { ClassFields, ListQueryContent } from './class-parts.tsx';
import { classPath } from './class-paths.ts';
import { classFormLabels, classQueries } from './classes-queries.ts';

/**
 * /dashboard/teacher/classes (decision 031, "Class screens"): the classes the teacher teaches,
 * archived last as the server sorts them, and a form for a new one.
 */
export function Component() {
  const classes = useQuery(classQueries.mine());
  const { t } = useLingui();
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-8">
      <PageTitle>{t`Classes`}</PageTitle>
      <PageHeader title={t`Classes`} description={t`The classes you teach: their join codes, teachers and students.`} />
      <NewClassForm />
      <section aria-labelledby="classes-list" className="flex flex-col gap-3">
        <h2 id="classes-list" className="text-lg font-semibold text-fg">
          {t`Your classes`}
        </h2>
        <ListQueryContent
          query={classes}
          loading={t`Loading your classes…`}
          failure={t`Your classes could not be loaded.`}
          empty={{ title: t`No classes yet`, hint: t`Create your first class above; its students join with its code.` }}
        >
          {(items) => (
            <ul className="grid gap-3 md:grid-cols-2">
              {items.map((entry) => (
                <ClassCard key={entry._id} entry={entry} />
              ))}
            </ul>
          )}
        </ListQueryContent>
      </section>
    </div>
  );
}

function NewClassForm() {
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const form = useEndpointForm({
    schema: createClassSchema,
    labels: classFormLabels(),
    onSubmit: async (_input, { body, form: element }) => {
      const { data } = await call(createClass, { body });
      const className = data.name;
      toast.success(t`Class ${className} created`);
      element.reset();
      await queryClient.invalidateQueries({ queryKey: classQueries.all });
    },
  });
  return (
    <section aria-labelledby="new-class" className="flex flex-col gap-3">
      <h2 id="new-class" className="text-lg font-semibold text-fg">
        {t`New class`}
      </h2>
      <Card padding="md">
        <form {...form.formProps} className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
          <ClassFields form={form} />
          <Button type="submit" disabled={form.isSubmitting} className="sm:mt-7">
            {t`Create class`}
          </Button>
        </form>
      </Card>
    </section>
  );
}

/** One class as a link to its page, with what a teacher looks for at a glance. */
function ClassCard({ entry }: { entry: TeacherClass }) {
  const { t } = useLingui();
  const teacherNames = formatList(entry.teachers.map((teacher) => teacher.name));
  const count = entry.studentCount;
  return (
    <li>
      <Link
        to={classPath(entry._id)}
        className={cn(
          cardVariants({ tone: entry.isArchived ? 'sunken' : 'default', padding: 'md' }),
          'flex items-start gap-3 hover:border-brand-500 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none',
        )}
      >
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-2">
            <span className="text-base font-semibold wrap-anywhere text-fg">{entry.name}</span>
            {entry.isArchived ? <Badge tone="neutral">{t`Archived`}</Badge> : null}
          </p>
          <p className="text-sm text-muted">{entry.subject ?? t`No subject`}</p>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-muted">{t`Students`}</dt>
            <dd className="text-fg">{plural(count, { one: '# student', other: '# students' })}</dd>
            <dt className="text-muted">{t`Teachers`}</dt>
            <dd className="wrap-anywhere text-fg">{teacherNames}</dd>
            <dt className="text-muted">{t({ comment: "A class's join code", message: 'Code' })}</dt>
            <dd className="font-mono text-fg">
              {entry.joinCode ? (
                <bdi dir="ltr" className="whitespace-nowrap">
                  {entry.joinCode}
                </bdi>
              ) : (
                t({ comment: 'The join code is turned off', message: 'Turned off' })
              )}
            </dd>
          </dl>
        </div>
        <ChevronRight className="mt-1 size-5 shrink-0 text-muted rtl:-scale-x-100" aria-hidden="true" />
      </Link>
    </li>
  );
}
