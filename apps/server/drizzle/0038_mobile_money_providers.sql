-- Issue 28. Mobile money speaks the operators' own APIs: the providers we hold an account with (base URL,
-- null for the built-in sandbox; settings; write-only credentials), the sandbox providers' own side of those
-- accounts (their private keys and the keys they issued), which provider carries each pay type, and what a
-- sandbox face's protocol adds to a transaction.
CREATE TABLE "payment_providers" (
	"provider" text PRIMARY KEY NOT NULL,
	"base_url" text,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"secrets" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "sandbox_provider_accounts" (
	"provider" text PRIMARY KEY NOT NULL,
	"credentials" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "payment_config" ADD COLUMN "provider_of" jsonb DEFAULT '{"3":"aggregator","4":"airtel","6":"mpesa","7":"aggregator"}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_operator_txns" ADD COLUMN "extra" jsonb DEFAULT '{}'::jsonb NOT NULL;
--> statement-breakpoint
-- A number ported to another network: where it went, recorded by an admin (the prefix check then allows it).
CREATE TABLE "ported_numbers" (
	"phone" text PRIMARY KEY NOT NULL,
	"pay_type" smallint NOT NULL,
	"marked_by" integer NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL
);
