-- Issue 30. The odds feed's producer outages, kept for the significant events: each time a producer stopped
-- being up (when, why) and when it was up again.
CREATE TABLE "feed_producer_outages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"producer" integer NOT NULL,
	"down_at" timestamp with time zone DEFAULT now() NOT NULL,
	"up_at" timestamp with time zone,
	"reason" text DEFAULT '' NOT NULL
);--> statement-breakpoint
CREATE INDEX "feed_producer_outages_down" ON "feed_producer_outages" USING btree ("down_at");--> statement-breakpoint
CREATE INDEX "feed_producer_outages_open" ON "feed_producer_outages" USING btree ("producer") WHERE up_at IS NULL;
