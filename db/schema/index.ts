// Every table, gathered from its domain's file: drizzle-kit reads this (drizzle.config.ts), and so do the db
// client and `import … from "@/db/schema"`. A new domain file is added here, or drizzle-kit would drop its tables.
export * from "./accounts";
export * from "./checkout";
export * from "./customers";
export * from "./disputes";
export * from "./events";
export * from "./idempotency";
export * from "./ledger";
export * from "./logs";
export * from "./payments";
export * from "./payouts";
export * from "./processors";
export * from "./platform";
export * from "./refunds";
export * from "./security";
export * from "./tokens";
export * from "./webhooks";
