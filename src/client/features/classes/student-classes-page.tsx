import { useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Presentation } from 'lucide-react';
import toast from 'react-hot-toast/headless';
import { Link } from 'react-router';
import { joinClass } from '#shared/contract/classes';
import { joinClassSchema } from '#shared/classes';
import { useEndpointForm } from '../../components/form/use-endpoint-form.ts';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { Card, cardVariants } from '../../components/ui/card.tsx';
import { codeInputProps, TextField } from '../../components/ui/field.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { call } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { leaderboardQueries } from '../leaderboard/leaderboard-queries.ts';
import { QUIZZES_KEY } from '../quizzes/quiz-keys.ts';
import { resourceQueries } from '../resources/resources-queries.ts';
import { ListQueryContent } from './class-parts.tsx';
import { classQueries } from './classes-queries.ts';
import { studentBoardPath } from '../class-boards/board-paths.ts';
import { usePreloadRoute } from '../../lib/route-preload.ts';

/**
 * After joining a class, what the student sees depends on their classes: its quizzes, library
 * and leaderboard are theirs now. (Here, not in the queries module: the teacher's class screens
 * would carry the quiz and library modules for nothing.)
 */
const refreshAfterJoining = (queryClient: QueryClient) =>
  Promise.all(
    [classQueries.all, QUIZZES_KEY, resourceQueries.all, leaderboardQueries.all].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );

/**
 * /dashboard/student/classes (decision 031, "Class screens"): the student's classes and the
 * form that joins another with its teacher's code.
 */
export function Component() {
  const classes = useQuery(classQueries.ofStudent());
  const { t } = useLingui();
  // The board's screen is the same for every class: its code is loaded for the first one listed.
  const firstClassId = classes.data?.[0]?._id;
  usePreloadRoute(firstClassId ? studentBoardPath(firstClassId) : undefined);
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-8">
      <PageTitle>{t`My classes`}</PageTitle>
      <PageHeader title={t`My classes`} description={t`Your classes, and joining another with its code.`} />
      <JoinClassForm />
      <section aria-labelledby="my-classes" className="flex flex-col gap-3">
        <h2 id="my-classes" className="text-lg font-semibold text-fg">
          {t`Your classes`}
        </h2>
        <ListQueryContent
          query={classes}
          loading={t`Loading your classes…`}
          failure={t`Your classes could not be loaded.`}
          empty={{ title: t`You are in no class yet`, hint: t`Ask your teacher for the class code and join above.` }}
        >
          {(items) => (
            <ul className="grid gap-3 sm:grid-cols-2">
              {items.map((entry) => (
                <li key={entry._id} className={cn(cardVariants({ padding: 'md' }))}>
                  <p id={`class-name-${entry._id}`} className="font-semibold wrap-anywhere text-fg">
                    {entry.name}
                  </p>
                  <p className="text-sm text-muted">{entry.subject ?? t`No subject`}</p>
                  <Link
                    to={studentBoardPath(entry._id)}
                    aria-describedby={`class-name-${entry._id}`}
                    className={cn(buttonVariants({ variant: 'secondary', size: 'sm' }), 'mt-3')}
                  >
                    <Presentation className="size-4" aria-hidden="true" />
                    {t`Open the class board`}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </ListQueryContent>
      </section>
    </div>
  );
}

function JoinClassForm() {
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const form = useEndpointForm({
    schema: joinClassSchema,
    onSubmit: async (_input, { body, form: element }) => {
      const { data } = await call(joinClass, { body });
      toast.success(t`You joined the class`);
      element.reset();
      queryClient.setQueryData(classQueries.ofStudent().queryKey, data);
      await refreshAfterJoining(queryClient);
    },
  });
  return (
    <section aria-labelledby="join-class" className="flex flex-col gap-3">
      <h2 id="join-class" className="text-lg font-semibold text-fg">
        {t`Join a class`}
      </h2>
      <Card padding="md">
        <form {...form.formProps} className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <TextField
            label={t`Class code`}
            hint={t`8 letters and digits from your teacher, like ABCD-EFGH.`}
            {...form.field('classCode')}
            autoComplete="off"
            autoCapitalize="characters"
            {...codeInputProps}
            maxLength={20}
            className="flex-1"
            required
          />
          <Button type="submit" disabled={form.isSubmitting} className="sm:mt-7">
            {t`Join class`}
          </Button>
        </form>
      </Card>
    </section>
  );
}
