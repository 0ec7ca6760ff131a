CREATE TABLE "bonus_order_spends" (
	"order_id" bigint PRIMARY KEY NOT NULL,
	"bettor_id" integer NOT NULL,
	"parts" jsonb NOT NULL,
	"refunded" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bonus_wagering" (
	"grant_id" bigint NOT NULL,
	"order_id" bigint NOT NULL,
	"stake" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bonus_wagering_grant_id_order_id_pk" PRIMARY KEY("grant_id","order_id")
);
--> statement-breakpoint
ALTER TABLE "promotion_events" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "promotion_events" ADD COLUMN "last_error" text;--> statement-breakpoint
CREATE INDEX "bonus_wagering_order" ON "bonus_wagering" USING btree ("order_id");