ALTER TABLE "idempotency_keys" ADD COLUMN "resource_id" bigint;--> statement-breakpoint
ALTER TABLE "payout_accounts" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_accounts" ADD COLUMN "failure_reason" text;