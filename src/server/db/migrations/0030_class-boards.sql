-- Issue 35 (decision 069): a board per class, its Yjs document as a snapshot and the updates
-- appended since (compacted into the snapshot), and its pen.
CREATE TABLE "class_board_updates" (
	"class_id" uuid NOT NULL,
	"seq" bigint NOT NULL,
	"update" "bytea" NOT NULL,
	"author_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_board_updates_class_id_seq_pk" PRIMARY KEY("class_id","seq")
);
--> statement-breakpoint
CREATE TABLE "class_boards" (
	"class_id" uuid PRIMARY KEY NOT NULL,
	"pen_mode" varchar(16) DEFAULT 'teachers' NOT NULL,
	"pen_student_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"snapshot" "bytea",
	"snapshot_seq" bigint DEFAULT 0 NOT NULL,
	"snapshot_bytes" integer DEFAULT 0 NOT NULL,
	"last_seq" bigint DEFAULT 0 NOT NULL,
	"log_bytes" integer DEFAULT 0 NOT NULL,
	"log_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_boards_pen_mode" CHECK ("class_boards"."pen_mode" in ('everyone', 'teachers', 'named')),
	CONSTRAINT "class_boards_seqs" CHECK ("class_boards"."snapshot_seq" between 0 and "class_boards"."last_seq")
);
--> statement-breakpoint
ALTER TABLE "class_board_updates" ADD CONSTRAINT "class_board_updates_class_id_class_boards_class_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."class_boards"("class_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_boards" ADD CONSTRAINT "class_boards_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE cascade ON UPDATE no action;