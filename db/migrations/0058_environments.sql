ALTER TABLE "merchants" ADD COLUMN "account_id" bigint;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "environment" text DEFAULT 'sandbox' NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "sandbox_name" text DEFAULT 'Test';--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_account_id_merchants_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "merchants_live_idx" ON "merchants" USING btree ("account_id") WHERE environment = 'live';--> statement-breakpoint
CREATE UNIQUE INDEX "merchants_sandbox_name_idx" ON "merchants" USING btree ("account_id","sandbox_name");--> statement-breakpoint
-- Each account's live environment, empty: everything made so far ran on the simulator and stays where it is, in
-- the account's row, which is now its first sandbox, "Test" (DESIGN.md, "Live and sandboxes"). Live starts with
-- the account's settings.
INSERT INTO "merchants" ("name", "account_id", "environment", "sandbox_name", "rate_limit_per_minute", "default_currency", "fee_percent", "fee_fixed", "payout_schedule", "created_at", "updated_at")
SELECT "name", "id", 'live', NULL, "rate_limit_per_minute", "default_currency", "fee_percent", "fee_fixed", "payout_schedule", "created_at", now()
FROM "merchants" WHERE "account_id" IS NULL;
