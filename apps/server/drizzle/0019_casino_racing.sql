CREATE TABLE "casino_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name_en" text NOT NULL,
	"name_sw" text NOT NULL,
	"name_zh" text NOT NULL,
	"icon" text DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"shown" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "casino_games" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"game_code" text NOT NULL,
	"name" text NOT NULL,
	"category_id" integer,
	"image" text DEFAULT '' NOT NULL,
	"kind" text DEFAULT 'slot' NOT NULL,
	"rtp_bps" integer NOT NULL,
	"volatility" smallint DEFAULT 2 NOT NULL,
	"min_bet" bigint DEFAULT 0 NOT NULL,
	"max_bet" bigint DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"hot" boolean DEFAULT false NOT NULL,
	"is_new" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "casino_providers" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"auth_kind" text DEFAULT 'hmac' NOT NULL,
	"public_key" text DEFAULT '' NOT NULL,
	"secret" text DEFAULT '' NOT NULL,
	"allowed_ips" text[] DEFAULT '{}' NOT NULL,
	"launch_url" text DEFAULT '' NOT NULL,
	"currency" text DEFAULT 'TZS' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "casino_rounds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"round_ref" text NOT NULL,
	"game_id" integer NOT NULL,
	"bettor_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"bet_total" bigint DEFAULT 0 NOT NULL,
	"win_total" bigint DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "casino_rtp_checks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"game_id" integer NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rounds" integer NOT NULL,
	"turnover" bigint NOT NULL,
	"payouts" bigint NOT NULL,
	"actual_bps" integer NOT NULL,
	"low_bps" integer NOT NULL,
	"high_bps" integer NOT NULL,
	"inside" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "casino_sessions" (
	"token" text PRIMARY KEY NOT NULL,
	"bettor_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"game_id" integer NOT NULL,
	"provider_id" integer NOT NULL,
	"currency" text DEFAULT 'TZS' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "casino_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"casino_enabled" boolean DEFAULT true NOT NULL,
	"max_bet" bigint DEFAULT 0 NOT NULL,
	"max_win" bigint DEFAULT 0 NOT NULL,
	"rtp_alert_confidence" integer DEFAULT 9990 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "casino_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL,
	"transaction_uuid" text NOT NULL,
	"round_id" bigint,
	"kind" text NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	"reference_uuid" text,
	"request_hash" text NOT NULL,
	"status" text NOT NULL,
	"balance_after" bigint DEFAULT 0 NOT NULL,
	"bill_id" bigint,
	"tombstone" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "racing_bets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"race_id" integer NOT NULL,
	"bettor_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"runner" smallint NOT NULL,
	"stake" bigint NOT NULL,
	"odds" numeric(10, 2) NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"payout" bigint DEFAULT 0 NOT NULL,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "racing_coin_accounts" (
	"bettor_id" integer PRIMARY KEY NOT NULL,
	"coins" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "racing_coin_moves" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"bettor_id" integer NOT NULL,
	"direction" smallint NOT NULL,
	"cash_cents" bigint NOT NULL,
	"coins" bigint NOT NULL,
	"bill_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "racing_races" (
	"id" serial PRIMARY KEY NOT NULL,
	"race_ref" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"runners" jsonb NOT NULL,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "racing_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"coin_rate_bps" integer DEFAULT 10000 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "casino_categories_sort" ON "casino_categories" USING btree ("sort","id");--> statement-breakpoint
CREATE UNIQUE INDEX "casino_games_code" ON "casino_games" USING btree ("provider_id","game_code");--> statement-breakpoint
CREATE INDEX "casino_games_category" ON "casino_games" USING btree ("category_id","sort");--> statement-breakpoint
CREATE INDEX "casino_games_created" ON "casino_games" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "casino_providers_code" ON "casino_providers" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "casino_rounds_ref" ON "casino_rounds" USING btree ("provider_id","round_ref");--> statement-breakpoint
CREATE INDEX "casino_rounds_created" ON "casino_rounds" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "casino_rounds_agent" ON "casino_rounds" USING btree ("agent_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "casino_rounds_bettor" ON "casino_rounds" USING btree ("bettor_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "casino_rounds_game" ON "casino_rounds" USING btree ("game_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "casino_rtp_checks_game" ON "casino_rtp_checks" USING btree ("game_id","checked_at");--> statement-breakpoint
CREATE INDEX "casino_sessions_bettor" ON "casino_sessions" USING btree ("bettor_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "casino_transactions_uuid" ON "casino_transactions" USING btree ("provider_id","transaction_uuid");--> statement-breakpoint
CREATE INDEX "casino_transactions_round" ON "casino_transactions" USING btree ("round_id","id");--> statement-breakpoint
CREATE INDEX "casino_transactions_reference" ON "casino_transactions" USING btree ("provider_id","reference_uuid");--> statement-breakpoint
CREATE INDEX "racing_bets_race" ON "racing_bets" USING btree ("race_id","id");--> statement-breakpoint
CREATE INDEX "racing_bets_bettor" ON "racing_bets" USING btree ("bettor_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "racing_bets_agent" ON "racing_bets" USING btree ("agent_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "racing_coin_moves_bettor" ON "racing_coin_moves" USING btree ("bettor_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "racing_races_ref" ON "racing_races" USING btree ("race_ref");--> statement-breakpoint
CREATE INDEX "racing_races_starts" ON "racing_races" USING btree ("starts_at");