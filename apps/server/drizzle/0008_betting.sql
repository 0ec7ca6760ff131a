CREATE TABLE "bet_config" (
	"id" integer PRIMARY KEY NOT NULL,
	"min_stake" bigint NOT NULL,
	"max_stake" bigint NOT NULL,
	"max_payout" bigint NOT NULL,
	"max_legs" integer NOT NULL,
	"max_odds" numeric NOT NULL,
	"max_stake_per_match" bigint NOT NULL,
	"price_change" smallint NOT NULL,
	"allow_same_match" boolean NOT NULL,
	"tax_rate" integer NOT NULL,
	"cashout_enabled" boolean NOT NULL,
	"cashout_margin" integer NOT NULL,
	"cashout_delay_seconds" integer NOT NULL,
	"bonus_funds_share" integer NOT NULL,
	"inviter_share" integer NOT NULL,
	"bonus_enabled" boolean NOT NULL,
	"bonus_min_odds" numeric NOT NULL,
	"bonus_cap" bigint NOT NULL,
	"bonus_base" smallint NOT NULL,
	"bonus_on_cashout" boolean NOT NULL,
	"bonus_on_bonus_funds" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cashout_rules" (
	"order_id" bigint PRIMARY KEY NOT NULL,
	"target" bigint NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"admin_id" integer,
	"reason" text DEFAULT '' NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_lines" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"event_id" text NOT NULL,
	"market_key" text NOT NULL,
	"outcome_id" text NOT NULL,
	"market_type_id" integer NOT NULL,
	"specifiers" text DEFAULT '' NOT NULL,
	"market_name" text NOT NULL,
	"selection_name" text NOT NULL,
	"odds" numeric NOT NULL,
	"cashout_odds" numeric,
	"outcome_status" smallint DEFAULT 1 NOT NULL,
	"selection_outcome" smallint DEFAULT 0 NOT NULL,
	"settlement" jsonb,
	"settled_by" text,
	"sport_id" smallint NOT NULL,
	"competition_name" text DEFAULT '' NOT NULL,
	"home_team" text DEFAULT '' NOT NULL,
	"away_team" text DEFAULT '' NOT NULL,
	"fixture_date" timestamp with time zone NOT NULL,
	"event_status_at_bet" smallint NOT NULL,
	"object_version" bigint DEFAULT 0 NOT NULL,
	"minutes_at_settlement" integer,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"serial_number" text NOT NULL,
	"bettor_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"type" smallint NOT NULL,
	"status" smallint NOT NULL,
	"stake" bigint NOT NULL,
	"cash_stake" bigint NOT NULL,
	"credit_stake" bigint DEFAULT 0 NOT NULL,
	"total_odds" numeric NOT NULL,
	"potential_payout" bigint NOT NULL,
	"leg_count" smallint NOT NULL,
	"payout" bigint DEFAULT 0 NOT NULL,
	"profit" bigint DEFAULT 0 NOT NULL,
	"tax_rate" integer NOT NULL,
	"tax_amount" bigint DEFAULT 0 NOT NULL,
	"bonus_rate" integer DEFAULT 0 NOT NULL,
	"bonus_amount" bigint DEFAULT 0 NOT NULL,
	"early_cashout_fee" bigint DEFAULT 0 NOT NULL,
	"cashout_amount" bigint DEFAULT 0 NOT NULL,
	"inviter_reward" bigint DEFAULT 0 NOT NULL,
	"credited_cash" bigint DEFAULT 0 NOT NULL,
	"credited_credit" bigint DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'TZS' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"admin_id" integer,
	"last_match_at" timestamp with time zone NOT NULL,
	"abnormal_flag" smallint DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "selection_exposure" (
	"event_id" text NOT NULL,
	"market_key" text NOT NULL,
	"outcome_id" text NOT NULL,
	"agent_id" integer NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"stake" bigint DEFAULT 0 NOT NULL,
	"liability" bigint DEFAULT 0 NOT NULL,
	"payouts" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "selection_exposure_event_id_market_key_outcome_id_agent_id_pk" PRIMARY KEY("event_id","market_key","outcome_id","agent_id")
);
--> statement-breakpoint
CREATE TABLE "stats_bettor_day" (
	"day" text NOT NULL,
	"agent_id" integer NOT NULL,
	"bettor_id" integer NOT NULL,
	"hour" smallint NOT NULL,
	CONSTRAINT "stats_bettor_day_day_agent_id_bettor_id_pk" PRIMARY KEY("day","agent_id","bettor_id")
);
--> statement-breakpoint
CREATE TABLE "stats_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"agent_id" integer NOT NULL,
	"turnover" bigint DEFAULT 0 NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"payouts" bigint DEFAULT 0 NOT NULL,
	"tax" bigint DEFAULT 0 NOT NULL,
	"bonuses" bigint DEFAULT 0 NOT NULL,
	"cashouts" bigint DEFAULT 0 NOT NULL,
	"settled" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_hourly_hour_agent_id_pk" PRIMARY KEY("hour","agent_id")
);
--> statement-breakpoint
CREATE TABLE "string_rewards" (
	"id" serial PRIMARY KEY NOT NULL,
	"legs" integer NOT NULL,
	"rate" integer NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "cashout_rules_state" ON "cashout_rules" USING btree ("state");--> statement-breakpoint
CREATE INDEX "order_events_order" ON "order_events" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "order_lines_order" ON "order_lines" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_lines_selection" ON "order_lines" USING btree ("event_id","market_key","outcome_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_order_no" ON "orders" USING btree ("order_no");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_serial" ON "orders" USING btree ("serial_number");--> statement-breakpoint
CREATE INDEX "orders_created" ON "orders" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "orders_bettor" ON "orders" USING btree ("bettor_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "orders_agent" ON "orders" USING btree ("agent_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "orders_open_match" ON "orders" USING btree ("status","last_match_at");--> statement-breakpoint
CREATE UNIQUE INDEX "string_rewards_legs" ON "string_rewards" USING btree ("legs");--> statement-breakpoint
INSERT INTO "bet_config" ("id", "min_stake", "max_stake", "max_payout", "max_legs", "max_odds", "max_stake_per_match", "price_change", "allow_same_match",
  "tax_rate", "cashout_enabled", "cashout_margin", "cashout_delay_seconds", "bonus_funds_share", "inviter_share", "bonus_enabled", "bonus_min_odds", "bonus_cap",
  "bonus_base", "bonus_on_cashout", "bonus_on_bonus_funds")
VALUES (1, 10000, 500000000, 10000000000, 30, 10000, 0, 2, false, 1000, true, 500, 3, 10000, 100, true, 1.20, 1000000000, 1, false, false) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "string_rewards" ("legs", "rate") VALUES (3, 300), (4, 500), (5, 1000), (7, 2000), (10, 3500) ON CONFLICT DO NOTHING;
