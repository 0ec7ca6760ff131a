ALTER TABLE "leagues" ADD COLUMN "provider_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "leagues_provider_id_uq" ON "leagues" USING btree ("provider_id");--> statement-breakpoint
UPDATE "leagues" SET "provider_id" = CASE "name"
  WHEN 'Tanzanian Premier League' THEN 'sr:tournament:tz-plq'
  WHEN 'English Premier League' THEN 'sr:tournament:17'
  WHEN 'LaLiga' THEN 'sr:tournament:8'
  WHEN 'NBA' THEN 'sr:tournament:132'
END WHERE "provider_id" IS NULL AND "name" IN ('Tanzanian Premier League', 'English Premier League', 'LaLiga', 'NBA');
