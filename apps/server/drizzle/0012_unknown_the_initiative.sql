ALTER TABLE "stats_hourly" ADD COLUMN "settled_stake" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "time_zone" text DEFAULT 'Africa/Dar_es_Salaam' NOT NULL;--> statement-breakpoint
-- Backfill: the stakes of the orders already settled or cashed out, in the hour they were settled.
INSERT INTO "stats_hourly" ("hour", "agent_id", "settled_stake")
SELECT date_trunc('hour', coalesce("settled_at", "updated_at")), "agent_id", sum("stake")::bigint
FROM "orders" WHERE "status" IN (4, 6, 8)
GROUP BY 1, 2
ON CONFLICT ("hour", "agent_id") DO UPDATE SET "settled_stake" = excluded."settled_stake";
