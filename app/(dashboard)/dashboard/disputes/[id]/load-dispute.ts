import "server-only";
import { recordLoader } from "@/app/_lib/route-params";
import { getDb } from "@/db/client";
import { findDispute } from "@/lib/disputes/queries";

export const loadDispute = recordLoader((merchantId, id) => findDispute(getDb(), merchantId, id));
