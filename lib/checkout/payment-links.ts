import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { selectRows, type Executor } from "@/db/client";
import { merchantDefaultCurrency } from "@/lib/accounts/merchants";
import { amountField, inMinorUnits, parseWithMoney } from "@/lib/money/amount";
import { currencyField } from "@/lib/money/currencies";
import { toPaymentListItem } from "@/lib/payments/resource";
import type { DashboardPayment } from "@/lib/payments/search";
import { appOrigin } from "@/lib/platform/env";
import { DomainError } from "@/lib/platform/errors";
import { merchantHandle } from "@/lib/platform/ids";
import { isoTimestamp } from "@/lib/platform/timestamps";
import { messages, parseInput, stringField } from "@/lib/platform/validation";

export const createPaymentLinkSchema = z.object({
  name: stringField("name", { max: 100, required: true }).meta({
    description: "What the payer is paying for.",
  }),
  amount: amountField({ positive: true }),
  currency: currencyField(),
  description: stringField("description", { max: 500 })
    .nullish()
    .transform((value) => value || null),
});

export const updatePaymentLinkSchema = z.object({
  active: z.boolean({
    error: (issue) =>
      issue.input === undefined ? messages.required("active") : "The active field must be true or false.",
  }),
});

/** A payment link as the API returns it. */
export const paymentLinkSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  amount: z.string().describe('Exactly its currency\'s minor units: "12.50" EUR, "1500" JPY.'),
  currency: z.string().describe("ISO 4217, upper case; its payments are in it."),
  description: z.string().nullable(),
  url: z
    .string()
    .describe(
      "`{APP_URL}/l/{slug}`: each payer who opens it gets its page; a payment is made when they first submit the card form.",
    ),
  active: z.boolean().describe("An inactive link says so and creates nothing."),
  paid_count: z.number().int().describe("How many of its payments were paid (completed)."),
  created_at: z.string(),
});
export type PaymentLinkResource = z.infer<typeof paymentLinkSchema>;

type LinkRow = {
  id: number | string;
  slug: string;
  name: string;
  amount: string;
  currency: string;
  description: string | null;
  active: boolean;
  paid_count: number | string;
  created_at: Date | string;
};

function toResource(row: LinkRow): PaymentLinkResource {
  return {
    id: Number(row.id),
    name: row.name,
    amount: inMinorUnits(row.amount, row.currency),
    currency: row.currency,
    description: row.description,
    url: `${appOrigin()}/l/${row.slug}`,
    active: row.active,
    paid_count: Number(row.paid_count),
    created_at: isoTimestamp(row.created_at),
  };
}

/** A link's columns and its paid payments, counted through the index on checkouts' link. */
/** A link's slug: `{merchant id}_` and 16 base62 characters (merchantHandle). */
export const SLUG_LENGTH = 16;

const LINK_COLUMNS = sql`l.id, l.slug, l.name, l.amount::text as amount, l.currency, l.description, l.active, l.created_at,
  (select count(*) from checkouts c join payments p on p.id = c.payment_id and p.merchant_id = c.merchant_id
   where c.payment_link_id = l.id and c.merchant_id = l.merchant_id and p.status = 'completed') as paid_count`;

export async function createPaymentLink(
  db: Executor,
  merchantId: number,
  input: unknown,
): Promise<PaymentLinkResource> {
  const {
    data: link,
    amount,
    currency,
  } = await parseWithMoney(createPaymentLinkSchema, input, () => merchantDefaultCurrency(db, merchantId));
  const [row] = await selectRows<LinkRow>(
    db,
    sql`insert into payment_links (merchant_id, slug, name, amount, currency, description)
        values (${merchantId}, ${merchantHandle.make(merchantId, SLUG_LENGTH)}, ${link.name}, ${amount}::numeric, ${currency}, ${link.description})
        returning id, slug, name, amount::text as amount, currency, description, active, created_at, 0 as paid_count`,
  );
  return toResource(row!);
}

export async function getPaymentLink(
  db: Executor,
  merchantId: number,
  linkId: number,
): Promise<PaymentLinkResource | undefined> {
  const [row] = await selectRows<LinkRow>(
    db,
    sql`select ${LINK_COLUMNS} from payment_links l where l.id = ${linkId} and l.merchant_id = ${merchantId}`,
  );
  return row ? toResource(row) : undefined;
}

/** The merchant's links, newest first, a page at a time. */
export async function listPaymentLinks(
  db: Executor,
  merchantId: number,
  page: number,
  perPage: number,
): Promise<{ items: PaymentLinkResource[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    selectRows<LinkRow>(
      db,
      sql`select ${LINK_COLUMNS} from payment_links l where l.merchant_id = ${merchantId}
          order by l.created_at desc, l.id desc limit ${perPage} offset ${(page - 1) * perPage}`,
    ),
    selectRows<{ total: number | string }>(
      db,
      sql`select count(*) as total from payment_links where merchant_id = ${merchantId}`,
    ),
  ]);
  return { items: rows.map(toResource), total: Number(count?.total ?? 0) };
}

/** Turns a link on or off; an inactive link creates nothing. */
export async function setPaymentLinkActive(
  db: Executor,
  merchantId: number,
  linkId: number,
  input: unknown,
): Promise<PaymentLinkResource> {
  const { active } = parseInput(updatePaymentLinkSchema, input);
  const [updated] = await selectRows(
    db,
    sql`update payment_links set active = ${active}, updated_at = now()
        where id = ${linkId} and merchant_id = ${merchantId} returning id`,
  );
  if (!updated) throw new DomainError("not_found", `Payment link ${linkId} was not found.`);
  return (await getPaymentLink(db, merchantId, linkId))!;
}

/** A link's newest payments (made by payers who submitted its form) for its dashboard page, and how many. */
export async function listPaymentLinkPayments(
  db: Executor,
  merchantId: number,
  linkId: number,
  limit: number,
): Promise<{ items: DashboardPayment[]; total: number }> {
  const rows = await selectRows<{
    id: number | string;
    external_id: string | null;
    customer_id: string | null;
    status: string;
    amount: string;
    currency: string;
    amount_refunded: string;
    created_at: Date | string;
    total: number | string;
  }>(
    db,
    sql`select p.id, p.external_id, p.customer_id, p.status, p.amount::text as amount, p.currency,
               p.amount_refunded::text as amount_refunded, p.created_at, count(*) over () as total
        from checkouts c join payments p on p.id = c.payment_id and p.merchant_id = c.merchant_id
        where c.payment_link_id = ${linkId} and c.merchant_id = ${merchantId}
        order by c.payment_id desc limit ${limit}`,
  );
  return {
    items: rows.map((row) => ({
      ...toPaymentListItem(row),
      customer_id: row.customer_id,
      amount_refunded: inMinorUnits(row.amount_refunded, row.currency),
    })),
    total: Number(rows[0]?.total ?? 0),
  };
}
