CREATE TABLE "tron_chain_state" (
	"key" text PRIMARY KEY NOT NULL,
	"last_block" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tron_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"confirmations" integer DEFAULT 19 NOT NULL,
	"usdt_rate_tsh" bigint DEFAULT 260000 NOT NULL,
	"collect_threshold" bigint DEFAULT 10000000 NOT NULL,
	"gas_top_up_sun" bigint DEFAULT 30000000 NOT NULL,
	"hot_wallet_ceiling" bigint DEFAULT 100000000000 NOT NULL,
	"usdt_contract" text DEFAULT 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tron_sweeps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"kind" text NOT NULL,
	"tx_hash" text,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" bigint NOT NULL,
	"asset" text NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"remark" text,
	"withdrawal_id" bigint,
	"parent_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tron_transfers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"fingerprint" text NOT NULL,
	"tx_hash" text NOT NULL,
	"event_index" integer NOT NULL,
	"block_number" bigint,
	"block_time" timestamp with time zone,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" bigint NOT NULL,
	"direction" text NOT NULL,
	"wallet_id" integer,
	"bettor_id" integer,
	"agent_id" integer,
	"status" smallint DEFAULT 1 NOT NULL,
	"recharge_id" bigint,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tron_wallets" (
	"id" serial PRIMARY KEY NOT NULL,
	"role" smallint NOT NULL,
	"bettor_id" integer,
	"agent_id" integer,
	"address_base58" text NOT NULL,
	"address_hex" text NOT NULL,
	"public_key" text NOT NULL,
	"key_ciphertext" text NOT NULL,
	"key_iv" text NOT NULL,
	"key_tag" text NOT NULL,
	"data_key_wrapped" text NOT NULL,
	"trx_balance" bigint DEFAULT 0 NOT NULL,
	"usdt_balance" bigint DEFAULT 0 NOT NULL,
	"balance_synced_at" timestamp with time zone,
	"removed" boolean DEFAULT false NOT NULL,
	"removed_at" timestamp with time zone,
	"removed_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer
);
--> statement-breakpoint
CREATE TABLE "tron_sandbox_accounts" (
	"address" text PRIMARY KEY NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	"create_time" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tron_sandbox_blocks" (
	"number" bigint PRIMARY KEY NOT NULL,
	"hash" text NOT NULL,
	"parent_hash" text NOT NULL,
	"timestamp" bigint NOT NULL,
	"witness" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tron_sandbox_state" (
	"key" text PRIMARY KEY NOT NULL,
	"head" bigint DEFAULT 0 NOT NULL,
	"faults" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reorgs" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tron_sandbox_token_balances" (
	"contract" text NOT NULL,
	"address" text NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "tron_sandbox_token_balances_contract_address_pk" PRIMARY KEY("contract","address")
);
--> statement-breakpoint
CREATE TABLE "tron_sandbox_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tx_id" text NOT NULL,
	"raw" jsonb NOT NULL,
	"contract_type" text NOT NULL,
	"owner" text NOT NULL,
	"to_address" text NOT NULL,
	"token_to" text,
	"amount" bigint DEFAULT 0 NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"result" text,
	"fee" bigint DEFAULT 0 NOT NULL,
	"energy_usage" bigint DEFAULT 0 NOT NULL,
	"net_usage" bigint DEFAULT 0 NOT NULL,
	"block_number" bigint,
	"block_index" integer,
	"fault" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "tron_sweeps_number" ON "tron_sweeps" USING btree ("number");--> statement-breakpoint
CREATE INDEX "tron_sweeps_created" ON "tron_sweeps" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "tron_sweeps_tx" ON "tron_sweeps" USING btree ("tx_hash");--> statement-breakpoint
CREATE INDEX "tron_sweeps_open" ON "tron_sweeps" USING btree ("created_at") WHERE "tron_sweeps"."status" in (1, 4);--> statement-breakpoint
CREATE UNIQUE INDEX "tron_transfers_fingerprint" ON "tron_transfers" USING btree ("fingerprint");--> statement-breakpoint
CREATE INDEX "tron_transfers_created" ON "tron_transfers" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "tron_transfers_wallet" ON "tron_transfers" USING btree ("wallet_id");--> statement-breakpoint
CREATE INDEX "tron_transfers_tx" ON "tron_transfers" USING btree ("tx_hash");--> statement-breakpoint
CREATE INDEX "tron_transfers_seen" ON "tron_transfers" USING btree ("block_number") WHERE "tron_transfers"."status" = 1;--> statement-breakpoint
CREATE UNIQUE INDEX "tron_wallets_bettor" ON "tron_wallets" USING btree ("bettor_id") WHERE "tron_wallets"."bettor_id" is not null and "tron_wallets"."removed" = false;--> statement-breakpoint
CREATE UNIQUE INDEX "tron_wallets_address_base58" ON "tron_wallets" USING btree ("address_base58");--> statement-breakpoint
CREATE UNIQUE INDEX "tron_wallets_address_hex" ON "tron_wallets" USING btree ("address_hex");--> statement-breakpoint
CREATE INDEX "tron_wallets_created" ON "tron_wallets" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "tron_wallets_agent" ON "tron_wallets" USING btree ("agent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tron_sandbox_transactions_tx" ON "tron_sandbox_transactions" USING btree ("tx_id");--> statement-breakpoint
CREATE INDEX "tron_sandbox_transactions_block" ON "tron_sandbox_transactions" USING btree ("block_number");--> statement-breakpoint
CREATE INDEX "tron_sandbox_transactions_pending" ON "tron_sandbox_transactions" USING btree ("id") WHERE "tron_sandbox_transactions"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "tron_sandbox_transactions_token_to" ON "tron_sandbox_transactions" USING btree ("token_to");--> statement-breakpoint
CREATE INDEX "tron_sandbox_transactions_owner" ON "tron_sandbox_transactions" USING btree ("owner");