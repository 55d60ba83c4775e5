import type { Database } from "@/db/client";
import { createMerchantWithOwner } from "@/lib/accounts";

export type OptionSpec = { type: "string" | "boolean"; required?: boolean; description: string };
export type CommandOptions = Record<string, string | boolean | undefined>;

export type AdminCommand = {
  summary: string;
  options: Record<string, OptionSpec>;
  run: (db: Database, options: CommandOptions) => Promise<Record<string, unknown>>;
};

/** Every operator command calls the same domain function the dashboard and API use. */
export const adminCommands: Record<string, AdminCommand> = {
  "merchant:create": {
    summary: "Create a merchant and its owner user.",
    options: {
      email: { type: "string", required: true, description: "owner's login email" },
      password: { type: "string", required: true, description: "owner's password (at least 10 characters)" },
      name: { type: "string", description: "business name (defaults to the email)" },
    },
    async run(db, options) {
      const account = await createMerchantWithOwner(db, {
        email: options.email,
        password: options.password,
        name: options.name ?? options.email,
      });
      return { merchant_id: account.merchantId, user_id: account.userId, email: account.email };
    },
  },
};
