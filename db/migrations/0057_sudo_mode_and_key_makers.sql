ALTER TABLE "user_sessions" ADD COLUMN "reauthenticated_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "payout_account" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "created_by" text;