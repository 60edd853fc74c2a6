ALTER TABLE "quiz_attempts" ALTER COLUMN "score" SET DATA TYPE numeric(8, 2);--> statement-breakpoint
ALTER TABLE "quiz_attempts" ADD COLUMN "answer_times" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
-- Every question so far is worth 1 point: a quiz's total is its number of questions.
ALTER TABLE "quizzes" ADD COLUMN "total_points" numeric(8, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "quizzes" SET "total_points" = "question_count";--> statement-breakpoint
ALTER TABLE "quizzes" ALTER COLUMN "total_points" DROP DEFAULT;--> statement-breakpoint
-- Issue 20, decision 036: every stored question { _id, question_text, options: string[], answer }
-- becomes a single-choice question of 1 point whose options carry ids by position (o1, o2, …)
-- and their own correct flag. Plain jsonb functions: the same on PGlite and PostgreSQL.
UPDATE "quizzes" SET "questions" = (
  SELECT coalesce(jsonb_agg(
    jsonb_build_object(
      '_id', q.value -> '_id',
      'type', 'single',
      'question_text', q.value -> 'question_text',
      'points', 1,
      'options', (
        SELECT coalesce(jsonb_agg(
          jsonb_build_object('_id', 'o' || o.position, 'text', o.value, 'correct', o.value = q.value -> 'answer')
          ORDER BY o.position), '[]'::jsonb)
        FROM jsonb_array_elements(q.value -> 'options') WITH ORDINALITY AS o(value, position)
      )
    ) ORDER BY q.position), '[]'::jsonb)
  FROM jsonb_array_elements("quizzes"."questions") WITH ORDINALITY AS q(value, position)
)
WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements("quizzes"."questions") AS typed WHERE typed ? 'type');--> statement-breakpoint
-- Attempts spoke option text: the layout's options and the answers become those options' ids,
-- read from the (now typed) question of the same id. An answer that names no option is dropped
-- (it scored nothing); scores and accuracies are left as they are: 1 point a question gives
-- the same numbers.
UPDATE "quiz_attempts" AS a SET
  "layout" = (
    SELECT coalesce(jsonb_agg(
      jsonb_build_object(
        'questionId', l.value -> 'questionId',
        'options', (
          SELECT coalesce(jsonb_agg(opt -> '_id' ORDER BY shown.position), '[]'::jsonb)
          FROM jsonb_array_elements(l.value -> 'options') WITH ORDINALITY AS shown(value, position)
          JOIN jsonb_array_elements(question.value -> 'options') AS opt ON opt -> 'text' = shown.value
        )
      ) ORDER BY l.position), '[]'::jsonb)
    FROM jsonb_array_elements(a."layout") WITH ORDINALITY AS l(value, position)
    LEFT JOIN LATERAL (
      SELECT e AS value FROM jsonb_array_elements(q."questions") AS e WHERE e -> '_id' = l.value -> 'questionId' LIMIT 1
    ) AS question ON true
  ),
  "answers" = (
    SELECT coalesce(jsonb_object_agg(answer.key, opt -> '_id'), '{}'::jsonb)
    FROM jsonb_each(a."answers") AS answer
    JOIN jsonb_array_elements(q."questions") AS question ON question ->> '_id' = answer.key
    JOIN jsonb_array_elements(question -> 'options') AS opt ON opt -> 'text' = answer.value
  )
FROM "quizzes" AS q
WHERE q."id" = a."quiz_id";
