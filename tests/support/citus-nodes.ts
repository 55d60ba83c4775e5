// For the Citus suites (TEST_CITUS=1): the cluster's workers, and merchants placed on the one a test needs.
import { sql } from "drizzle-orm";
import { selectRows } from "@/db/client";
import { createApiToken } from "@/lib/tokens/tokens";
import { db, newMerchant } from "./direct-db";

/** The workers' ports, in order (the coordinator is group 0). */
export async function workerPorts(): Promise<number[]> {
  const workers = await selectRows<{ nodeport: number }>(
    db,
    sql`select nodeport from pg_dist_node where groupid <> 0 and isactive order by nodeport`,
  );
  return workers.map((worker) => Number(worker.nodeport));
}

/**
 * A merchant of the test's own on the worker at `port`, with a write token (merchants are hashed to shards;
 * a few tries do). `perMinute` raises its rate limit for tests that send hundreds of requests.
 */
export async function merchantOnWorker(port: number, label: string, perMinute?: number) {
  for (let attempt = 0; attempt < 40; attempt++) {
    const merchantId = await newMerchant(`${label}${attempt}`);
    const [placed] = await selectRows<{ nodeport: number }>(
      db,
      sql`select nodeport from citus_shards
          where shardid = get_shard_id_for_distribution_column('payments', ${merchantId}::bigint)`,
    );
    if (Number(placed?.nodeport) !== port) continue;
    if (perMinute)
      await db.execute(
        sql`update merchants set rate_limit_per_minute = ${perMinute} where id = ${merchantId}`,
      );
    const { token } = await createApiToken(db, merchantId, { name: label, scope: "write" });
    return { merchantId, token };
  }
  throw new Error(`No merchant landed on the worker at ${port}`);
}
