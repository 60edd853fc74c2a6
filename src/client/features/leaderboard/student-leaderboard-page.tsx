import { useLingui } from '@lingui/react/macro';
import { LEADERBOARD } from '#shared/progress';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { useQuery } from '@tanstack/react-query';
import { classQueries } from '../classes/classes-queries.ts';
import { usePagedList } from '../../lib/paged-list.ts';
import { leaderboardQueries } from './leaderboard-queries.ts';
import { LeaderboardResults, LeaderboardSearchField, useLeaderboardFilters } from './leaderboard-table.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { ClassIdSelect, FilterForm } from '../../components/ui/filter-fields.tsx';

/**
 * /dashboard/student/leaderboard (SPEC §2): one of the student's classes, ranked by average
 * score: their first by name unless they switch (decision 031). The server checks the class is theirs.
 */
export function Component() {
  const { filters, setFilter, textInput, applyTexts } = useLeaderboardFilters();
  const classes = useQuery(classQueries.ofStudent()).data ?? [];
  // A class from the address that is not theirs (or no longer) is not sent: the server's default.
  const chosen = classes.find((entry) => entry._id === filters.classId) ?? classes[0];
  const classId = chosen && chosen._id === filters.classId ? chosen._id : '';
  const board = usePagedList(leaderboardQueries.list('student', { classId, search: filters.search }));
  const className = chosen?.name;
  const { t } = useLingui();
  const top = LEADERBOARD.highlightedTop;

  return (
    <div className="mx-auto w-full max-w-4xl">
      <PageTitle>{t`Leaderboard`}</PageTitle>
      <PageHeader
        title={t`Class leaderboard`}
        description={
          className
            ? t`Class ${className}, ranked by average score. Students appear once they have attempted a quiz; the top ${top} are highlighted.`
            : t`Your class, ranked by average score. Students appear once they have attempted a quiz; the top ${top} are highlighted.`
        }
      />

      <FilterForm
        label={t`Search the leaderboard`}
        className={classes.length > 1 ? 'mt-6 grid gap-3 sm:grid-cols-[minmax(10rem,16rem)_1fr]' : 'mt-6 max-w-md'}
        onApply={applyTexts}
      >
        {/* The class switcher, for a student in more than one class. */}
        {classes.length > 1 && (
          <ClassIdSelect
            value={chosen?._id ?? ''}
            classes={classes}
            onChange={(value) => setFilter('classId', value === classes[0]?._id ? '' : value)}
          />
        )}
        <LeaderboardSearchField {...textInput('search')} />
      </FilterForm>

      <div className="mt-6">
        <LeaderboardResults
          board={board}
          caption={t`Class leaderboard: rank, student, average score, accuracy, total score, quizzes attempted`}
          isFiltered={Boolean(filters.search)}
          showClass={false}
          showStars={false}
        />
      </div>
    </div>
  );
}
