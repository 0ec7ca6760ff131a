CREATE TABLE "async_operations" (
	"id" serial PRIMARY KEY NOT NULL,
	"admin_id" integer NOT NULL,
	"type" text NOT NULL,
	"format" smallint NOT NULL,
	"params" jsonb NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"file_path" text,
	"file_name" text,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bettors" (
	"id" serial PRIMARY KEY NOT NULL,
	"phone" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"password_hash" text DEFAULT '' NOT NULL,
	"invitation_code" text,
	"inviter_id" integer,
	"agent_id" integer NOT NULL,
	"cash_balance" bigint DEFAULT 0 NOT NULL,
	"credit_balance" bigint DEFAULT 0 NOT NULL,
	"disabled" smallint DEFAULT 1 NOT NULL,
	"online_status" smallint DEFAULT 1 NOT NULL,
	"online_updated_at" timestamp with time zone,
	"risk_level" smallint DEFAULT 1 NOT NULL,
	"bet_status" smallint DEFAULT 1 NOT NULL,
	"google_bound" smallint DEFAULT 2 NOT NULL,
	"register_ip" text,
	"last_login_at" timestamp with time zone,
	"last_recharge_at" timestamp with time zone,
	"total_bets" bigint DEFAULT 0 NOT NULL,
	"bets_num" integer DEFAULT 0 NOT NULL,
	"profit_num" integer DEFAULT 0 NOT NULL,
	"betting_profit" bigint DEFAULT 0 NOT NULL,
	"total_recharge" bigint DEFAULT 0 NOT NULL,
	"total_withdrawal" bigint DEFAULT 0 NOT NULL,
	"total_reward" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bills" (
	"id" bigserial NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"serial_number" text NOT NULL,
	"bettor_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"account_kind" smallint NOT NULL,
	"type" smallint NOT NULL,
	"amount" bigint NOT NULL,
	"balance_before" bigint NOT NULL,
	"balance_after" bigint NOT NULL,
	"cause_type" text NOT NULL,
	"cause_id" text,
	"admin_id" integer,
	"remark" text DEFAULT '' NOT NULL,
	"txn_id" text NOT NULL,
	CONSTRAINT "bills_id_created_at_pk" PRIMARY KEY("id","created_at")
) PARTITION BY RANGE ("created_at");
--> statement-breakpoint
CREATE TABLE "house_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"txn_id" text NOT NULL,
	"account" text NOT NULL,
	"amount" bigint NOT NULL,
	"bill_type" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_callbacks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"pay_type" smallint NOT NULL,
	"event_id" text NOT NULL,
	"kind" text NOT NULL,
	"reference" text NOT NULL,
	"payload" jsonb NOT NULL,
	"duplicates" integer DEFAULT 0 NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_config" (
	"id" integer PRIMARY KEY NOT NULL,
	"min_recharge" bigint DEFAULT 10000 NOT NULL,
	"min_withdrawal" bigint DEFAULT 100000 NOT NULL,
	"max_withdrawal" bigint DEFAULT 500000000 NOT NULL,
	"large_withdrawal" bigint DEFAULT 100000000 NOT NULL,
	"stuck_after_minutes" integer DEFAULT 15 NOT NULL,
	"disburse_timeout_minutes" integer DEFAULT 60 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recharges" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"serial_number" text NOT NULL,
	"bettor_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"pay_type" smallint NOT NULL,
	"phone" text NOT NULL,
	"carrier_order_number" text,
	"pay_status" smallint DEFAULT 1 NOT NULL,
	"fail_reason" text,
	"previous_recharge_at" timestamp with time zone,
	"callback_count" integer DEFAULT 0 NOT NULL,
	"last_query_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recharges_serial_number_unique" UNIQUE("serial_number")
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"serial_number" text NOT NULL,
	"bettor_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"pay_type" smallint NOT NULL,
	"phone" text NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"pay_status" smallint DEFAULT 1 NOT NULL,
	"carrier_order_number" text,
	"first_approver_id" integer,
	"second_approver_id" integer,
	"refused_by" integer,
	"refuse_reason" text,
	"fail_reason" text,
	"previous_recharge_at" timestamp with time zone,
	"disburse_attempts" integer DEFAULT 0 NOT NULL,
	"last_query_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone,
	"disbursed_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdrawals_serial_number_unique" UNIQUE("serial_number")
);
--> statement-breakpoint
CREATE INDEX "async_operations_admin" ON "async_operations" USING btree ("admin_id","id");--> statement-breakpoint
CREATE INDEX "async_operations_status" ON "async_operations" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "bettors_phone" ON "bettors" USING btree ("phone");--> statement-breakpoint
CREATE UNIQUE INDEX "bettors_invitation_code" ON "bettors" USING btree ("invitation_code");--> statement-breakpoint
CREATE INDEX "bettors_agent" ON "bettors" USING btree ("agent_id","id");--> statement-breakpoint
CREATE INDEX "bettors_created" ON "bettors" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "bettors_online" ON "bettors" USING btree ("online_status");--> statement-breakpoint
CREATE INDEX "bills_created" ON "bills" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "bills_bettor" ON "bills" USING btree ("bettor_id","account_kind","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "bills_agent" ON "bills" USING btree ("agent_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "bills_type" ON "bills" USING btree ("type","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "bills_serial" ON "bills" USING btree ("serial_number");--> statement-breakpoint
CREATE INDEX "bills_admin" ON "bills" USING btree ("admin_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "bills_cause" ON "bills" USING btree ("cause_type","cause_id");--> statement-breakpoint
CREATE INDEX "house_entries_account" ON "house_entries" USING btree ("account","created_at");--> statement-breakpoint
CREATE INDEX "house_entries_txn" ON "house_entries" USING btree ("txn_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_callbacks_event" ON "payment_callbacks" USING btree ("pay_type","event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "recharges_carrier" ON "recharges" USING btree ("pay_type","carrier_order_number");--> statement-breakpoint
CREATE INDEX "recharges_created" ON "recharges" USING btree ("created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "recharges_bettor" ON "recharges" USING btree ("bettor_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "recharges_agent" ON "recharges" USING btree ("agent_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "recharges_pending" ON "recharges" USING btree ("pay_status","created_at") WHERE pay_status = 1;--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_carrier" ON "withdrawals" USING btree ("pay_type","carrier_order_number");--> statement-breakpoint
CREATE INDEX "withdrawals_created" ON "withdrawals" USING btree ("created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "withdrawals_bettor" ON "withdrawals" USING btree ("bettor_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "withdrawals_agent" ON "withdrawals" USING btree ("agent_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "withdrawals_status" ON "withdrawals" USING btree ("status","created_at");
--> statement-breakpoint
-- Hand-written: balances can never go below zero, whatever code runs.
ALTER TABLE "bettors" ADD CONSTRAINT "bettors_cash_balance_non_negative" CHECK ("cash_balance" >= 0);--> statement-breakpoint
ALTER TABLE "bettors" ADD CONSTRAINT "bettors_credit_balance_non_negative" CHECK ("credit_balance" >= 0);--> statement-breakpoint
-- Bills: one partition per calendar month (UTC), plus a default one so an insert never fails.
CREATE TABLE "bills_default" PARTITION OF "bills" DEFAULT;--> statement-breakpoint
CREATE OR REPLACE FUNCTION dau_ensure_bill_partitions(from_month date, months integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  m date := date_trunc('month', from_month)::date;
  made integer := 0;
  name text;
BEGIN
  FOR i IN 0..months - 1 LOOP
    name := 'bills_' || to_char(m, 'YYYYMM');
    IF to_regclass(name) IS NULL THEN
      BEGIN
        EXECUTE format('CREATE TABLE %I PARTITION OF bills FOR VALUES FROM (%L) TO (%L)',
          name, (m::timestamp AT TIME ZONE 'UTC'), ((m + interval '1 month')::timestamp AT TIME ZONE 'UTC'));
        made := made + 1;
      EXCEPTION WHEN check_violation THEN
        -- Rows of that month already sit in the default partition: leave them there.
        NULL;
      END;
    END IF;
    m := (m + interval '1 month')::date;
  END LOOP;
  RETURN made;
END $$;--> statement-breakpoint
SELECT dau_ensure_bill_partitions((now() - interval '3 months')::date, 8);
