import { PRODUCT_NAME } from '#shared/constants';

/** The browser tab's title for a screen (React hoists <title> into the head), e.g. "Quizzes · StudyHall". */
export function PageTitle({ children }: { children: string }) {
  return <title>{`${children} · ${PRODUCT_NAME}`}</title>;
}
