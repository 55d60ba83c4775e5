import "server-only";
import { recordLoader } from "@/app/_lib/route-params";
import { getDb } from "@/db/client";
import { findPayout } from "@/lib/payouts/payouts";

export const loadPayout = recordLoader((merchantId, id) => findPayout(getDb(), merchantId, id));
