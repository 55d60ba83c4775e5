ALTER TABLE "merchants" DROP COLUMN "display_currency";--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "completed_volume";--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "refunded";