ALTER TABLE "merchants" ADD COLUMN "clock_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "merchants_clocked_idx" ON "merchants" USING btree ("id") WHERE clock_at is not null;