-- Issue 27. The odds feed speaks Sportradar's Unified Odds Feed: one row per producer the feed describes
-- (`/v1/descriptions/producers.xml`), with what recovery needs to survive a restart: the timestamp of the
-- last message processed while the producer was up (`after` of the next recovery) and the recovery in
-- progress (its request id, since when, from when). The producer health panel reads it, on every process.
CREATE TABLE "feed_producers" (
	"producer" integer PRIMARY KEY NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"product" text DEFAULT '' NOT NULL,
	"recovery_window_minutes" integer DEFAULT 4320 NOT NULL,
	"state" text DEFAULT 'down' NOT NULL,
	"last_processed_ts" bigint,
	"last_alive_at" timestamp with time zone,
	"last_message_at" timestamp with time zone,
	"recovery_request_id" bigint,
	"recovery_since" timestamp with time zone,
	"recovery_after_ts" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feed_producers_state_check" CHECK ("state" IN ('up', 'down', 'recovering'))
);--> statement-breakpoint
-- Recovery request ids: unique over the bookmaker's requests, whichever process asks.
CREATE SEQUENCE "feed_recovery_request_seq";--> statement-breakpoint
-- The feed's market descriptions (`/v1/descriptions/{lang}/markets.xml`), per language, refreshed.
CREATE TABLE "feed_market_descriptions" (
	"lang" text NOT NULL,
	"market_id" integer NOT NULL,
	"description" jsonb NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feed_market_descriptions_pk" PRIMARY KEY("lang","market_id")
);
