import { queryOptions } from '@tanstack/react-query';
import { listAccommodations } from '#shared/contract/quiz-accommodations';
import { call } from '../../../lib/api.ts';

/** A quiz's accommodations (decision 036), as its teacher reads and changes them. */
export const accommodationQueries = {
  list: (quizId: string) =>
    queryOptions({
      queryKey: ['quiz', 'accommodations', quizId],
      queryFn: async ({ signal }) => (await call(listAccommodations, { params: { id: quizId } }, { signal })).data,
    }),
};
