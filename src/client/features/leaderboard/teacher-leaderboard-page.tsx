import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { LEADERBOARD } from '#shared/progress';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { listClasses } from '#shared/contract/students';
import { call } from '../../lib/api.ts';
import {
  LeaderboardResults,
  LeaderboardSearchField,
  useLeaderboard,
  useLeaderboardFilters,
} from './leaderboard-table.tsx';
import { ClassSelect } from '../../components/ui/filter-fields.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';

/** The school's classes for the filter; the students screen reads (and refreshes) the same list. */
function useClassChoices() {
  const query = useQuery({
    queryKey: ['students', 'classes'],
    queryFn: async () => (await call(listClasses)).data,
  });
  return query.data ?? [];
}

/**
 * /dashboard/teacher/leaderboard (SPEC §2): every class ranked together, or one
 * class; top 3 highlighted, ranks under 5 starred, accuracy coloured.
 */
export function Component() {
  const { filters, searchText, setSearchText, setClass, searchNow } = useLeaderboardFilters();
  const board = useLeaderboard('teacher', filters);
  const classes = useClassChoices();
  const classFieldId = useId();
  const classOptions = [...classes];
  // A class from the address that is not (or no longer) listed still shows as chosen.
  if (filters.className && !classOptions.includes(filters.className)) classOptions.unshift(filters.className);
  const scope = filters.className ? `Class ${filters.className}` : 'All classes';

  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageTitle>Leaderboard</PageTitle>
      <PageHeader
        title="Leaderboard"
        description={`${scope}, ranked by average score. Students appear once they have attempted a quiz; the top ${LEADERBOARD.highlightedTop} are highlighted.`}
      />

      <form
        role="search"
        aria-label="Filter the leaderboard"
        className="mt-6 grid gap-3 sm:grid-cols-[minmax(10rem,16rem)_1fr]"
        onSubmit={(event) => {
          event.preventDefault();
          searchNow();
        }}
      >
        <ClassSelect id={classFieldId} value={filters.className} options={classOptions} onChange={setClass} />
        <LeaderboardSearchField value={searchText} onChange={setSearchText} />
      </form>

      <div className="mt-6">
        <LeaderboardResults
          board={board}
          caption={`Leaderboard, ${scope.toLowerCase()}: rank, student, average score, accuracy, total score, quizzes attempted`}
          isFiltered={Boolean(filters.className || filters.search)}
          showClass
          showStars
        />
      </div>
    </div>
  );
}
