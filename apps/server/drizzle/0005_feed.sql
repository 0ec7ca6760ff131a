CREATE TABLE "feed_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"id" serial NOT NULL,
	"sport_id" smallint NOT NULL,
	"league_id" text NOT NULL,
	"league_name" text DEFAULT '' NOT NULL,
	"home_team" text NOT NULL,
	"away_team" text NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"event_status" smallint NOT NULL,
	"match_status" smallint DEFAULT 1 NOT NULL,
	"is_visible" boolean DEFAULT true NOT NULL,
	"is_suspended" boolean DEFAULT false NOT NULL,
	"is_maintain" boolean DEFAULT false NOT NULL,
	"live_delay_seconds" integer DEFAULT 0 NOT NULL,
	"random_bet" boolean DEFAULT false NOT NULL,
	"popularity" integer DEFAULT 0 NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"cancel_reason" text DEFAULT '' NOT NULL,
	"updated_ts" bigint NOT NULL,
	"object_version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feed_events_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE TABLE "feed_fingerprints" (
	"fingerprint" text PRIMARY KEY NOT NULL,
	"ts" bigint NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feed_market_history" (
	"event_id" text NOT NULL,
	"market_key" text NOT NULL,
	"seq" integer NOT NULL,
	"kind" text NOT NULL,
	"ts" bigint NOT NULL,
	"entry" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feed_market_history_event_id_market_key_seq_pk" PRIMARY KEY("event_id","market_key","seq")
);
--> statement-breakpoint
CREATE TABLE "feed_markets" (
	"event_id" text NOT NULL,
	"market_key" text NOT NULL,
	"type_id" integer NOT NULL,
	"specifiers" text DEFAULT '' NOT NULL,
	"producer" smallint NOT NULL,
	"status" smallint NOT NULL,
	"suspended_by_operator" boolean DEFAULT false NOT NULL,
	"suspended_by_bet_stop" boolean DEFAULT false NOT NULL,
	"suspended_by_producer" boolean DEFAULT false NOT NULL,
	"last_odds_ts" bigint DEFAULT 0 NOT NULL,
	"last_bet_stop_ts" bigint DEFAULT 0 NOT NULL,
	"settlement" jsonb,
	"status_before_settlement" smallint,
	"cancel" jsonb,
	"updated_ts" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feed_markets_event_id_market_key_pk" PRIMARY KEY("event_id","market_key")
);
--> statement-breakpoint
CREATE TABLE "feed_outcomes" (
	"event_id" text NOT NULL,
	"market_key" text NOT NULL,
	"outcome_id" text NOT NULL,
	"original_price" numeric,
	"price" numeric,
	"active" boolean DEFAULT true NOT NULL,
	"settlement" jsonb,
	"outcome_status" smallint NOT NULL,
	"selection_outcome" smallint NOT NULL,
	"updated_ts" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feed_outcomes_event_id_market_key_outcome_id_pk" PRIMARY KEY("event_id","market_key","outcome_id")
);
--> statement-breakpoint
CREATE INDEX "feed_events_sport_start_idx" ON "feed_events" USING btree ("sport_id","start_time");--> statement-breakpoint
CREATE INDEX "feed_events_league_start_idx" ON "feed_events" USING btree ("league_id","start_time");--> statement-breakpoint
CREATE INDEX "feed_events_status_idx" ON "feed_events" USING btree ("event_status");--> statement-breakpoint
CREATE INDEX "feed_fingerprints_ts_idx" ON "feed_fingerprints" USING btree ("ts");--> statement-breakpoint
CREATE INDEX "feed_markets_producer_idx" ON "feed_markets" USING btree ("producer");