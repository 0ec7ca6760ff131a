CREATE TABLE "jackpot_bet_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"reward_type" smallint DEFAULT 1 NOT NULL,
	"tiers" jsonb NOT NULL,
	"pool_rate_bps" integer NOT NULL,
	"max_range_odds" numeric(10, 2) DEFAULT '0' NOT NULL,
	"odds_rise_step" numeric(10, 2) DEFAULT '0' NOT NULL,
	"bet_amount" bigint NOT NULL,
	"incentives" bigint DEFAULT 0 NOT NULL,
	"init_jackpot" bigint DEFAULT 0 NOT NULL,
	"jackpot" bigint DEFAULT 0 NOT NULL,
	"max_add_balance" bigint DEFAULT 0 NOT NULL,
	"guess_number" smallint NOT NULL,
	"max_doubles" smallint NOT NULL,
	"max_triples" smallint DEFAULT 0 NOT NULL,
	"allow_bonus" boolean DEFAULT false NOT NULL,
	"cancel_rule" smallint DEFAULT 1 NOT NULL,
	"cancel_void_threshold" smallint DEFAULT 3 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jackpot_issue_matches" (
	"issue_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"event_id" text NOT NULL,
	"home_team" text DEFAULT '' NOT NULL,
	"away_team" text DEFAULT '' NOT NULL,
	"league_name" text DEFAULT '' NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"result" smallint,
	"feed_result" smallint,
	"result_source" text,
	"override_reason" text,
	CONSTRAINT "jackpot_issue_matches_issue_id_position_pk" PRIMARY KEY("issue_id","position")
);
--> statement-breakpoint
CREATE TABLE "jackpot_issues" (
	"id" serial PRIMARY KEY NOT NULL,
	"bet_type_id" integer NOT NULL,
	"identifier_prefix" text NOT NULL,
	"identifier" text NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"category_id" integer,
	"league_id" text,
	"prize_pool" bigint DEFAULT 0 NOT NULL,
	"max_choose" smallint NOT NULL,
	"incentives" bigint DEFAULT 0 NOT NULL,
	"bet_close_at" timestamp with time zone,
	"bet_status" smallint DEFAULT 1 NOT NULL,
	"settle_status" smallint DEFAULT 1 NOT NULL,
	"total_bet" bigint DEFAULT 0 NOT NULL,
	"lines" bigint DEFAULT 0 NOT NULL,
	"tickets" integer DEFAULT 0 NOT NULL,
	"successful" bigint DEFAULT 0 NOT NULL,
	"net_income" bigint DEFAULT 0 NOT NULL,
	"net_profit" bigint DEFAULT 0 NOT NULL,
	"expenditure" bigint DEFAULT 0 NOT NULL,
	"settled_version" integer DEFAULT 0 NOT NULL,
	"delete_reason" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jackpot_odds_checks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"issue_id" integer NOT NULL,
	"event_id" text NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"prices" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jackpot_settlements" (
	"id" serial PRIMARY KEY NOT NULL,
	"issue_id" integer NOT NULL,
	"version" integer NOT NULL,
	"kind" text NOT NULL,
	"results" jsonb NOT NULL,
	"plan" jsonb NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"admin_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "jackpot_shares" (
	"code" text PRIMARY KEY NOT NULL,
	"ticket_id" bigint NOT NULL,
	"bettor_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"copies" integer DEFAULT 0 NOT NULL,
	"copy_stake" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jackpot_tickets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"serial_number" text NOT NULL,
	"issue_id" integer NOT NULL,
	"bettor_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"picks" smallint[] NOT NULL,
	"lines" integer NOT NULL,
	"unit" bigint NOT NULL,
	"stake" bigint NOT NULL,
	"bonus_stake" bigint DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"best_hits" smallint,
	"winning_lines" integer DEFAULT 0 NOT NULL,
	"gross" bigint DEFAULT 0 NOT NULL,
	"tax" bigint DEFAULT 0 NOT NULL,
	"credited" bigint DEFAULT 0 NOT NULL,
	"withheld" bigint DEFAULT 0 NOT NULL,
	"settled_version" integer DEFAULT 0 NOT NULL,
	"placed_by" integer,
	"shared_from" bigint,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "jackpot_bet_types_created" ON "jackpot_bet_types" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "jackpot_issue_matches_event" ON "jackpot_issue_matches" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "jackpot_issues_identifier" ON "jackpot_issues" USING btree ("identifier");--> statement-breakpoint
CREATE INDEX "jackpot_issues_created" ON "jackpot_issues" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "jackpot_issues_bet_type" ON "jackpot_issues" USING btree ("bet_type_id","id");--> statement-breakpoint
CREATE INDEX "jackpot_issues_prefix" ON "jackpot_issues" USING btree ("identifier_prefix","id");--> statement-breakpoint
CREATE INDEX "jackpot_issues_start" ON "jackpot_issues" USING btree ("start_time");--> statement-breakpoint
CREATE INDEX "jackpot_odds_checks_issue" ON "jackpot_odds_checks" USING btree ("issue_id","event_id","checked_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jackpot_settlements_version" ON "jackpot_settlements" USING btree ("issue_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "jackpot_shares_ticket" ON "jackpot_shares" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "jackpot_shares_created" ON "jackpot_shares" USING btree ("created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "jackpot_shares_agent" ON "jackpot_shares" USING btree ("agent_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "jackpot_tickets_serial" ON "jackpot_tickets" USING btree ("serial_number");--> statement-breakpoint
CREATE UNIQUE INDEX "jackpot_tickets_idempotency" ON "jackpot_tickets" USING btree ("bettor_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "jackpot_tickets_issue" ON "jackpot_tickets" USING btree ("issue_id","id");--> statement-breakpoint
CREATE INDEX "jackpot_tickets_created" ON "jackpot_tickets" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "jackpot_tickets_bettor" ON "jackpot_tickets" USING btree ("bettor_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "jackpot_tickets_agent" ON "jackpot_tickets" USING btree ("agent_id","created_at" DESC NULLS FIRST);