CREATE TABLE "casino_large_win_cursor" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"last_round_id" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "casino_large_wins" (
	"round_id" bigint PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"game_id" integer NOT NULL,
	"bettor_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"bet_total" bigint NOT NULL,
	"win_total" bigint NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"review_note" text
);
--> statement-breakpoint
ALTER TABLE "casino_games" ADD COLUMN "large_win_multiple" integer DEFAULT 5000 NOT NULL;--> statement-breakpoint
ALTER TABLE "casino_settings" ADD COLUMN "large_win_amount" bigint DEFAULT 1000000000 NOT NULL;--> statement-breakpoint
CREATE INDEX "casino_large_wins_created" ON "casino_large_wins" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "casino_large_wins_agent" ON "casino_large_wins" USING btree ("agent_id","created_at");