import "server-only";
import { recordLoader } from "@/app/_lib/route-params";
import { getDb } from "@/db/client";
import { getMerchantPayment } from "@/lib/payments/queries";

export const loadPayment = recordLoader((merchantId, id) => getMerchantPayment(getDb(), merchantId, id));
