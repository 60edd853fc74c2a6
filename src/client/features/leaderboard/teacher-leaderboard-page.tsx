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
  const scope = chosen ? `Class ${chosen.name}` : filters.classId ? 'One class' : 'All classes';

  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageTitle>Leaderboard</PageTitle>
      <PageHeader
        title="Leaderboard"
        description={`${scope}, ranked by average score. Students appear once they have attempted a quiz; the top ${LEADERBOARD.highlightedTop} are highlighted.`}
      />

      <FilterForm
        label="Filter the leaderboard"
        className="mt-6 grid gap-3 sm:grid-cols-[minmax(10rem,16rem)_1fr]"
        onApply={applyTexts}
      >
        <ClassIdSelect
          value={filters.classId}
          classes={classes}
          allLabel="All classes"
          onChange={(value) => setFilter('classId', value)}
        />
        <LeaderboardSearchField {...textInput('search')} />
      </FilterForm>

      <div className="mt-6">
        <LeaderboardResults
          board={board}
          caption={`Leaderboard, ${scope.toLowerCase()}: rank, student, average score, accuracy, total score, quizzes attempted`}
          isFiltered={Boolean(filters.classId || filters.search)}
          showClass
          showStars
        />
      </div>
    </div>
  );
}
