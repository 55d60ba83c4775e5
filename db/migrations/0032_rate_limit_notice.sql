ALTER TABLE "api_tokens" ADD COLUMN "last_limited_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "limited_since" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "limited_per_minute" integer;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "limit_notice_dismissed_at" timestamp (3) with time zone;