import { LEADERBOARD } from '#shared/progress';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { useProfile } from '../session/profile.ts';
import { usePagedList } from '../../lib/paged-list.ts';
import { leaderboardQueries } from './leaderboard-queries.ts';
import { LeaderboardResults, LeaderboardSearchField, useLeaderboardFilters } from './leaderboard-table.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { FilterForm } from '../../components/ui/filter-fields.tsx';

/**
 * /dashboard/student/leaderboard (SPEC §2): the student's own class, ranked by
 * average score. The server decides the class from the token.
 */
export function Component() {
  const { filters, textInput, applyTexts } = useLeaderboardFilters();
  // The class is the server's choice: a class in the address is not sent.
  const board = usePagedList(leaderboardQueries.list('student', { class: '', search: filters.search }));
  const className = useProfile('student')?.class;

  return (
    <div className="mx-auto w-full max-w-4xl">
      <PageTitle>Leaderboard</PageTitle>
      <PageHeader
        title="Class leaderboard"
        description={`${className ? `Class ${className}` : 'Your class'}, ranked by average score. Students appear once they have attempted a quiz; the top ${LEADERBOARD.highlightedTop} are highlighted.`}
      />

      <FilterForm label="Search the leaderboard" className="mt-6 max-w-md" onApply={applyTexts}>
        <LeaderboardSearchField {...textInput('search')} />
      </FilterForm>

      <div className="mt-6">
        <LeaderboardResults
          board={board}
          caption="Class leaderboard: rank, student, average score, accuracy, total score, quizzes attempted"
          isFiltered={Boolean(filters.search)}
          showClass={false}
          showStars={false}
        />
      </div>
    </div>
  );
}
