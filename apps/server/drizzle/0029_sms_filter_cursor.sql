ALTER TABLE "sms_sends" ADD COLUMN "target_scope" jsonb;--> statement-breakpoint
ALTER TABLE "sms_sends" ADD COLUMN "prepare_cursor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sms_sends" ADD COLUMN "written_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Sends made before this change wrote every recipient in their request.
UPDATE "sms_sends" SET "written_count" = "recipient_count";
