-- Issue 30 point 2, decision 039: option ids were o1…oN in the order the teacher wrote the
-- options, and a student's page carries them (the radio buttons' values), so reading them gave
-- away the key most teachers and GIFT and Aiken files write first. Every option of a choice
-- question gets a random id of the shape the server now draws (8 base64url characters, 48
-- random bits: attempt-rules.ts newOpaqueIds), and the attempts' layouts and answers follow
-- through one table of changes, all in the migration's one transaction. The quiz's version
-- moves on, so an edit opened before names ids that are gone and is refused as stale. Plain
-- functions, the same on PGlite and PostgreSQL.
CREATE TEMPORARY TABLE "option_id_changes" (
	"quiz_id" uuid NOT NULL,
	"question_id" text NOT NULL,
	"old_id" text NOT NULL,
	"new_id" text NOT NULL,
	PRIMARY KEY ("quiz_id", "question_id", "old_id"),
	-- Two draws alike in one question (odds about 1e-13) fail the migration; the next start draws again.
	UNIQUE ("quiz_id", "question_id", "new_id")
) ON COMMIT DROP;--> statement-breakpoint
INSERT INTO "option_id_changes" ("quiz_id", "question_id", "old_id", "new_id")
SELECT q."id", question ->> '_id', opt ->> '_id',
	translate(encode(substring(uuid_send(gen_random_uuid()) FROM 1 FOR 6), 'base64'), '+/', '-_')
FROM "quizzes" AS q
CROSS JOIN LATERAL jsonb_array_elements(q."questions") AS question
CROSS JOIN LATERAL jsonb_array_elements(question -> 'options') AS opt
WHERE question ->> 'type' IN ('single', 'multiple');--> statement-breakpoint
UPDATE "quizzes" AS q SET
	"questions" = (
		SELECT jsonb_agg(
			CASE WHEN question.value ->> 'type' IN ('single', 'multiple') THEN
				jsonb_set(question.value, '{options}', (
					SELECT coalesce(jsonb_agg(jsonb_set(opt.value, '{_id}', to_jsonb(c."new_id")) ORDER BY opt.position), '[]'::jsonb)
					FROM jsonb_array_elements(question.value -> 'options') WITH ORDINALITY AS opt(value, position)
					JOIN "option_id_changes" AS c ON c."quiz_id" = q."id"
						AND c."question_id" = question.value ->> '_id' AND c."old_id" = opt.value ->> '_id'
				))
			ELSE question.value END
			ORDER BY question.position)
		FROM jsonb_array_elements(q."questions") WITH ORDINALITY AS question(value, position)
	),
	"version" = q."version" + 1
WHERE EXISTS (SELECT 1 FROM "option_id_changes" AS c WHERE c."quiz_id" = q."id");--> statement-breakpoint
-- A layout's option ids and an answer's (a single choice's id, a multiple choice's list) are
-- looked up by quiz, question and old id: only choice questions have rows, so a typed answer
-- (a short text that reads "o1") stays as it is.
UPDATE "quiz_attempts" AS a SET
	"layout" = (
		SELECT coalesce(jsonb_agg(
			jsonb_set(l.value, '{options}', (
				SELECT coalesce(jsonb_agg(coalesce(to_jsonb(c."new_id"), shown.value) ORDER BY shown.position), '[]'::jsonb)
				FROM jsonb_array_elements(l.value -> 'options') WITH ORDINALITY AS shown(value, position)
				LEFT JOIN "option_id_changes" AS c ON c."quiz_id" = a."quiz_id"
					AND c."question_id" = l.value ->> 'questionId' AND c."old_id" = shown.value #>> '{}'
			)) ORDER BY l.position), '[]'::jsonb)
		FROM jsonb_array_elements(a."layout") WITH ORDINALITY AS l(value, position)
	),
	"answers" = (
		SELECT coalesce(jsonb_object_agg(answer.key, CASE jsonb_typeof(answer.value)
			WHEN 'string' THEN coalesce((
				SELECT to_jsonb(c."new_id") FROM "option_id_changes" AS c
				WHERE c."quiz_id" = a."quiz_id" AND c."question_id" = answer.key AND c."old_id" = answer.value #>> '{}'
			), answer.value)
			WHEN 'array' THEN (
				SELECT coalesce(jsonb_agg(coalesce(to_jsonb(c."new_id"), chosen.value) ORDER BY chosen.position), '[]'::jsonb)
				FROM jsonb_array_elements(answer.value) WITH ORDINALITY AS chosen(value, position)
				LEFT JOIN "option_id_changes" AS c ON c."quiz_id" = a."quiz_id"
					AND c."question_id" = answer.key AND c."old_id" = chosen.value #>> '{}'
			)
			ELSE answer.value END), '{}'::jsonb)
		FROM jsonb_each(a."answers") AS answer
	)
WHERE EXISTS (SELECT 1 FROM "option_id_changes" AS c WHERE c."quiz_id" = a."quiz_id");
