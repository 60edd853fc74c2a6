import { useLingui } from '@lingui/react/macro';
import { LEADERBOARD } from '#shared/progress';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { usePagedList } from '../../lib/paged-list.ts';
import { useQuery } from '@tanstack/react-query';
import { classQueries } from '../classes/classes-queries.ts';
import { leaderboardQueries } from './leaderboard-queries.ts';
import { LeaderboardResults, LeaderboardSearchField, useLeaderboardFilters } from './leaderboard-table.tsx';
import { ClassIdSelect, FilterForm } from '../../components/ui/filter-fields.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';

/**
 * /dashboard/teacher/leaderboard (SPEC §2): every class ranked together, or one
 * class; top 3 highlighted, ranks under 5 starred, accuracy coloured.
 */
export function Component() {
  const { filters, setFilter, textInput, applyTexts } = useLeaderboardFilters();
  const board = usePagedList(leaderboardQueries.list('teacher', filters));
  // The caller's classes for the filter (by id); the classes screen reads (and refreshes) the same list.
  const classes = useQuery(classQueries.mine()).data ?? [];
  const chosen = classes.find((entry) => entry._id === filters.classId);
  const { t } = useLingui();
  const top = LEADERBOARD.highlightedTop;
  const className = chosen?.name;
  // Whole sentences per scope: a translation words each its own way.
  const [description, caption] = className
    ? [
        t`Class ${className}, ranked by average score. Students appear once they have attempted a quiz; the top ${top} are highlighted.`,
        t`Leaderboard, class ${className}: rank, student, average score, accuracy, total score, quizzes attempted`,
      ]
    : filters.classId
      ? [
          t`One class, ranked by average score. Students appear once they have attempted a quiz; the top ${top} are highlighted.`,
          t`Leaderboard, one class: rank, student, average score, accuracy, total score, quizzes attempted`,
        ]
      : [
          t`All classes, ranked by average score. Students appear once they have attempted a quiz; the top ${top} are highlighted.`,
          t`Leaderboard, all classes: rank, student, average score, accuracy, total score, quizzes attempted`,
        ];

  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageTitle>{t`Leaderboard`}</PageTitle>
      <PageHeader title={t`Leaderboard`} description={description} />

      <FilterForm
        label={t`Filter the leaderboard`}
        className="mt-6 grid gap-3 sm:grid-cols-[minmax(10rem,16rem)_1fr]"
        onApply={applyTexts}
      >
        <ClassIdSelect
          value={filters.classId}
          classes={classes}
          allLabel={t`All classes`}
          onChange={(value) => setFilter('classId', value)}
        />
        <LeaderboardSearchField {...textInput('search')} />
      </FilterForm>

      <div className="mt-6">
        <LeaderboardResults
          board={board}
          caption={caption}
          isFiltered={Boolean(filters.classId || filters.search)}
          showClass
          showStars
        />
      </div>
    </div>
  );
}
