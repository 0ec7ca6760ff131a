-- Issue 25. The odds feed's matches, markets and outcomes only grew: a match that is over, started more
-- than DAU_MATCH_RETENTION_DAYS ago and that no bet waits on moves here, row for row, with its markets and
-- outcomes (modules/feed/archive.ts, the periodic `feed.archive-matches` job). LIKE the live tables, so
-- each archive has their columns in their order, types, NOT NULLs and defaults; its keys and indexes are
-- its own. The archive keeps the ids the live table gave and never makes one: no default on `id`.
CREATE TABLE "feed_events_archive" (LIKE "feed_events" INCLUDING DEFAULTS INCLUDING CONSTRAINTS);--> statement-breakpoint
ALTER TABLE "feed_events_archive" ALTER COLUMN "id" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "feed_events_archive" ADD CONSTRAINT "feed_events_archive_pkey" PRIMARY KEY ("event_id");--> statement-breakpoint
ALTER TABLE "feed_events_archive" ADD CONSTRAINT "feed_events_archive_id_unique" UNIQUE ("id");--> statement-breakpoint
-- The history lists' order (start time, then id) and filters, as on the live table.
CREATE INDEX "feed_events_archive_start_idx" ON "feed_events_archive" USING btree ("start_time","id");--> statement-breakpoint
CREATE INDEX "feed_events_archive_sport_start_idx" ON "feed_events_archive" USING btree ("sport_id","start_time");--> statement-breakpoint
CREATE INDEX "feed_events_archive_league_start_idx" ON "feed_events_archive" USING btree ("league_id","start_time");--> statement-breakpoint
CREATE TABLE "feed_markets_archive" (LIKE "feed_markets" INCLUDING DEFAULTS INCLUDING CONSTRAINTS);--> statement-breakpoint
ALTER TABLE "feed_markets_archive" ADD CONSTRAINT "feed_markets_archive_event_id_market_key_pk" PRIMARY KEY ("event_id","market_key");--> statement-breakpoint
CREATE TABLE "feed_outcomes_archive" (LIKE "feed_outcomes" INCLUDING DEFAULTS INCLUDING CONSTRAINTS);--> statement-breakpoint
ALTER TABLE "feed_outcomes_archive" ADD CONSTRAINT "feed_outcomes_archive_event_id_market_key_outcome_id_pk" PRIMARY KEY ("event_id","market_key","outcome_id");--> statement-breakpoint
-- Every match, live or archived: what the history screens read (the matches list, a match's odds, the
-- match statistics). A plain UNION ALL of two tables of the same columns, so PostgreSQL flattens it: a
-- list's ORDER BY start_time, id LIMIT n merges the two (start_time, id) indexes (Merge Append) and a join
-- on event_id probes both primary keys. The live paths never read it.
CREATE VIEW "feed_events_all" AS
  SELECT *, false AS "archived" FROM "feed_events"
  UNION ALL
  SELECT *, true AS "archived" FROM "feed_events_archive";
