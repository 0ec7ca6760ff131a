ALTER TABLE "roles" ADD COLUMN "serves_superior_branch" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "roles" SET "serves_superior_branch" = true WHERE "name" IN ('Default', 'Administrator');
