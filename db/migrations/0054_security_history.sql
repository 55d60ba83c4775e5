-- The security history (DESIGN.md, "Security history…"), partitioned by week of created_at as webhook_attempts is
-- (edited after drizzle-kit generate: the schema cannot declare partitions); its first partitions are made here,
-- the rest ahead by the partition service (lib/platform/history-partitions.ts). And the payout account's hold:
-- until when payouts wait after the account was replaced.
CREATE TABLE "security_events" (
	"merchant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "security_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"action" text NOT NULL,
	"actor" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"target" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "security_events_merchant_id_id_created_at_pk" PRIMARY KEY("merchant_id","id","created_at")
) PARTITION BY RANGE ("created_at");
--> statement-breakpoint
ALTER TABLE "payout_accounts" ADD COLUMN "payouts_start_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "security_events_merchant_idx" ON "security_events" USING btree ("merchant_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "security_events_merchant_action_idx" ON "security_events" USING btree ("merchant_id","action","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
SELECT "create_history_partitions"('security_events', 'week', now() - interval '7 days', now() + interval '7 days');
