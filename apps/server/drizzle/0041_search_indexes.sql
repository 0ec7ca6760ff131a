-- Issue 29, search everywhere (apps/server/src/modules/search): what its lookups need that no index had.
-- Names and accounts are searched by a left-anchored prefix of their lower case in the C collation: the
-- index serves the LIKE 'abc%' range and gives the answer's order, whatever the database's collation;
-- a branch admin's bettors by name: per agent of the branch, with the name and id in the index so that
-- the matches are ranked without reading a row (an index-only scan; the five found are read after).
-- A TRON address finds the transfers and sweeps to or from it, newest first. (Phones, serial numbers,
-- invitation codes, ids and transaction hashes are exact probes of unique or existing indexes; an
-- operator's reference probes the (pay_type, carrier_order_number) unique index once per pay type.)
CREATE INDEX IF NOT EXISTS "bettors_name_prefix" ON "bettors" USING btree ((lower("name") COLLATE "C"));--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "bettors_agent_name_prefix" ON "bettors" USING btree ("agent_id",(lower("name") COLLATE "C")) INCLUDE ("name","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "admins_account_prefix" ON "admins" USING btree ((lower("account") COLLATE "C"));--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "admins_name_prefix" ON "admins" USING btree ((lower("name") COLLATE "C"));--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tron_transfers_from" ON "tron_transfers" USING btree ("from_address","id" DESC);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tron_transfers_to" ON "tron_transfers" USING btree ("to_address","id" DESC);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tron_sweeps_from" ON "tron_sweeps" USING btree ("from_address","id" DESC);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tron_sweeps_to" ON "tron_sweeps" USING btree ("to_address","id" DESC);
