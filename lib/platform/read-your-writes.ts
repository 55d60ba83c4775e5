import "server-only";
import { recordMerchantWrite } from "@/db/replicas";
import { logger } from "./logger";

/**
 * Called after a merchant's API write or dashboard action: with read replicas, its next reads wait for a
 * replica that has replayed this write (db/replicas.ts); without, nothing happens. The write has committed,
 * so failing to record it must not fail the request: the merchant's reads may then see a replica a moment
 * behind, which is logged.
 */
export async function afterMerchantWrite(merchantId: number): Promise<void> {
  try {
    await recordMerchantWrite(merchantId);
  } catch (error) {
    logger.warn(
      { err: error, merchantId },
      "Could not record a merchant's write position for read-your-writes",
    );
  }
}
