CREATE TABLE "balance_transactions" (
	"merchant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "balance_transactions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"type" text NOT NULL,
	"source_id" bigint NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric NOT NULL,
	"fee" numeric DEFAULT '0' NOT NULL,
	"net" numeric NOT NULL,
	"status" text NOT NULL,
	"available_on" timestamp (3) with time zone NOT NULL,
	"payout_id" bigint,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "balance_transactions_merchant_id_id_pk" PRIMARY KEY("merchant_id","id")
);
--> statement-breakpoint
CREATE TABLE "ledger_balances" (
	"merchant_id" bigint NOT NULL,
	"account" text NOT NULL,
	"currency" text NOT NULL,
	"slot" smallint NOT NULL,
	"amount" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "ledger_balances_merchant_id_account_currency_slot_pk" PRIMARY KEY("merchant_id","account","currency","slot")
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"merchant_id" bigint NOT NULL,
	"transaction_id" bigint NOT NULL,
	"posting" text NOT NULL,
	"account" text NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_merchant_id_transaction_id_posting_account_pk" PRIMARY KEY("merchant_id","transaction_id","posting","account")
);
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "fee_percent" numeric DEFAULT '2.9' NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "fee_fixed" numeric DEFAULT '30' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "fee" numeric;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "net" numeric;--> statement-breakpoint
ALTER TABLE "balance_transactions" ADD CONSTRAINT "balance_transactions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_balances" ADD CONSTRAINT "ledger_balances_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "balance_transactions_merchant_created_idx" ON "balance_transactions" USING btree ("merchant_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "balance_transactions_merchant_source_idx" ON "balance_transactions" USING btree ("merchant_id","source_id");--> statement-breakpoint
CREATE INDEX "balance_transactions_pending_idx" ON "balance_transactions" USING btree ("available_on") WHERE "balance_transactions"."status" = 'pending';--> statement-breakpoint
-- Payments completed and refunds made before the ledger post theirs afterwards, in batches (db/backfills.ts).
INSERT INTO "backfills" ("name", "through") VALUES
  ('ledger.1.payments', (SELECT coalesce(max("id"), 0)::text FROM "payments")),
  ('ledger.2.refunds', (SELECT coalesce(max("id"), 0)::text FROM "refunds"));
