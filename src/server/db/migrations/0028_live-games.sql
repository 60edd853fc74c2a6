-- Issue 34 (decision 066): live games, their players and their answers. A PIN is unique among the
-- games not ended; one answer per player and question (the first counts); scores move at each close.
CREATE TABLE "live_answers" (
	"game_id" uuid NOT NULL,
	"question_id" varchar(40) NOT NULL,
	"student_id" uuid NOT NULL,
	"value" jsonb NOT NULL,
	"received_at" timestamp (3) with time zone NOT NULL,
	"elapsed_ms" integer NOT NULL,
	"points" integer NOT NULL,
	"fraction" double precision NOT NULL,
	CONSTRAINT "live_answers_game_id_question_id_student_id_pk" PRIMARY KEY("game_id","question_id","student_id"),
	CONSTRAINT "live_answers_points" CHECK ("live_answers"."points" between 0 and 1000),
	CONSTRAINT "live_answers_fraction" CHECK ("live_answers"."fraction" between 0 and 1),
	CONSTRAINT "live_answers_elapsed" CHECK ("live_answers"."elapsed_ms" >= 0)
);
--> statement-breakpoint
CREATE TABLE "live_games" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"quiz_id" uuid NOT NULL,
	"class_id" uuid NOT NULL,
	"host_teacher_id" uuid,
	"pin" varchar(6) NOT NULL,
	"state" varchar(16) DEFAULT 'lobby' NOT NULL,
	"questions" jsonb NOT NULL,
	"skipped" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"question_count" smallint NOT NULL,
	"current_index" smallint DEFAULT -1 NOT NULL,
	"question_opened_at" timestamp (3) with time zone,
	"question_deadline" timestamp (3) with time zone,
	"paused_at" timestamp (3) with time zone,
	"question_seconds" smallint DEFAULT 20 NOT NULL,
	"counts_toward_leaderboard" boolean DEFAULT false NOT NULL,
	"names_hidden" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_games_state" CHECK ("live_games"."state" in ('lobby', 'question-open', 'question-closed', 'paused', 'ended')),
	CONSTRAINT "live_games_pin" CHECK ("live_games"."pin" ~ '^[0-9]{6}$'),
	CONSTRAINT "live_games_question_seconds" CHECK ("live_games"."question_seconds" between 5 and 240),
	CONSTRAINT "live_games_index" CHECK ("live_games"."current_index" >= -1 and "live_games"."current_index" < "live_games"."question_count"),
	CONSTRAINT "live_games_paused" CHECK (("live_games"."state" = 'paused') = ("live_games"."paused_at" is not null)),
	CONSTRAINT "live_games_ended" CHECK (("live_games"."state" = 'ended') = ("live_games"."ended_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "live_players" (
	"game_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"score" integer DEFAULT 0 NOT NULL,
	"streak" smallint DEFAULT 0 NOT NULL,
	"first_index" smallint DEFAULT 0 NOT NULL,
	"removed" boolean DEFAULT false NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_players_game_id_student_id_pk" PRIMARY KEY("game_id","student_id"),
	CONSTRAINT "live_players_score" CHECK ("live_players"."score" >= 0)
);
--> statement-breakpoint
ALTER TABLE "live_answers" ADD CONSTRAINT "live_answers_player_fk" FOREIGN KEY ("game_id","student_id") REFERENCES "public"."live_players"("game_id","student_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_games" ADD CONSTRAINT "live_games_quiz_id_quizzes_id_fk" FOREIGN KEY ("quiz_id") REFERENCES "public"."quizzes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_games" ADD CONSTRAINT "live_games_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_games" ADD CONSTRAINT "live_games_host_teacher_id_teachers_id_fk" FOREIGN KEY ("host_teacher_id") REFERENCES "public"."teachers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_players" ADD CONSTRAINT "live_players_game_id_live_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."live_games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_players" ADD CONSTRAINT "live_players_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_answers_player_idx" ON "live_answers" USING btree ("game_id","student_id");--> statement-breakpoint
CREATE UNIQUE INDEX "live_games_pin_active_unique" ON "live_games" USING btree ("pin") WHERE "live_games"."state" <> 'ended';--> statement-breakpoint
CREATE INDEX "live_games_class_active_idx" ON "live_games" USING btree ("class_id","created_at") WHERE "live_games"."state" <> 'ended';--> statement-breakpoint
CREATE INDEX "live_games_quiz_ended_idx" ON "live_games" USING btree ("quiz_id","ended_at") WHERE "live_games"."state" = 'ended';--> statement-breakpoint
CREATE INDEX "live_games_idle_idx" ON "live_games" USING btree ("updated_at") WHERE "live_games"."state" <> 'ended';--> statement-breakpoint
CREATE INDEX "live_players_student_idx" ON "live_players" USING btree ("student_id");