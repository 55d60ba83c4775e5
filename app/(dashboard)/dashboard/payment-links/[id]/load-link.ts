import "server-only";
import { recordLoader } from "@/app/_lib/route-params";
import { getDb } from "@/db/client";
import { getPaymentLink } from "@/lib/checkout/payment-links";

export const loadPaymentLink = recordLoader((merchantId, id) => getPaymentLink(getDb(), merchantId, id));
