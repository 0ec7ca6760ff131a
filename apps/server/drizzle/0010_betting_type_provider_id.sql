ALTER TABLE "betting_types" ADD COLUMN "provider_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "betting_types_provider_id_uq" ON "betting_types" USING btree ("provider_id");--> statement-breakpoint
UPDATE "betting_types" SET "provider_id" = CASE
  WHEN "sport_id" = 1 AND "name" = '1X2' THEN 1
  WHEN "sport_id" = 1 AND "name" = 'Over/Under' THEN 18
  WHEN "sport_id" = 1 AND "name" = 'Asian handicap' THEN 16
  WHEN "sport_id" = 8 AND "name" = 'Moneyline' THEN 219
  WHEN "sport_id" = 8 AND "name" = 'Total points' THEN 225
END WHERE "provider_id" IS NULL AND (("sport_id" = 1 AND "name" IN ('1X2', 'Over/Under', 'Asian handicap')) OR ("sport_id" = 8 AND "name" IN ('Moneyline', 'Total points')));
