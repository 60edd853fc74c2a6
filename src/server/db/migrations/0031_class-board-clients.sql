-- Issue 35 (decision 069): each Yjs client id of a board is one person's, bound at its first
-- stored update; an update using a client id first used by someone else is refused.
CREATE TABLE "class_board_clients" (
	"class_id" uuid NOT NULL,
	"client_id" bigint NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_board_clients_class_id_client_id_pk" PRIMARY KEY("class_id","client_id")
);
--> statement-breakpoint
ALTER TABLE "class_board_clients" ADD CONSTRAINT "class_board_clients_class_id_class_boards_class_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."class_boards"("class_id") ON DELETE cascade ON UPDATE no action;
