// On Citus (TEST_CITUS=1): a worker's session stays the same size however many writes and pages it serves
// (docs/scaling.md, "Per node"). Citus 13.2.2 keeps a copy of a local plan for each call of a repeated
// statement on its own node's shard (citusdata/citus #8783); db/citus.ts sets plan_cache_mode so no such plan
// is made. The session here is one like the app's on a worker ("Any node"): prepared statements, the
// delegated creation and settle, a list page. Citus's own sessions to the workers get the same setting.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { merchantOnWorker, workerPorts } from "../support/citus-nodes";

const citus = process.env.TEST_CITUS === "1";
const CALLS = 150;
// Without the setting the session grew by 155 MB over these calls (about 1 MB a creation, settle and page); with
// it, by nothing.
const MAX_GROWTH_BYTES = 8 * 1024 * 1024;

describe.runIf(citus)("on Citus, a worker's session memory", () => {
  let worker: postgres.Sql;
  let merchantId: number;

  beforeAll(async () => {
    const [port] = await workerPorts();
    ({ merchantId } = await merchantOnWorker(port!, "session-memory"));
    const url = new URL(process.env.DATABASE_URL!);
    url.port = String(port);
    worker = postgres(url.toString(), { max: 1, prepare: true, onnotice: () => {} });
  });
  afterAll(() => worker?.end());

  const sessionBytes = async () => {
    const [row] = await worker<
      [{ bytes: string }]
    >`select sum(total_bytes) as bytes from pg_backend_memory_contexts`;
    return Number(row.bytes);
  };
  const createAndSettle = async (index: number) => {
    const [created] = await worker<[{ created: { id: number } }]>`
      select create_payment(${merchantId}::bigint, ${`evt_memory_${merchantId}_${index}`}::text, null, null,
        ${"12.34"}::numeric, 'EUR', null, 'api', 0, null, null, ${`memory-${merchantId}-${index}`}::text, 'x',
        'http://localhost/checkout', false, null, null, now() - interval '1 day', 'simulator', null, null) as created`;
    await worker`
      select settle_payment(${merchantId}::bigint, ${created.created.id}::bigint,
        ${`evt_memory_settled_${merchantId}_${index}`}::text, 'completed', null, null, null, 0::bigint, false)`;
    await worker`select id, status, amount from payments where merchant_id = ${merchantId}::bigint
                 order by id desc limit 50`;
  };

  it("is set to plan each call, here and in Citus's own sessions to the workers", async () => {
    const [own] = await worker<[{ plan_cache_mode: string }]>`show plan_cache_mode`;
    expect(own.plan_cache_mode).toBe("force_custom_plan");
    const fromCoordinator = await worker<Array<{ result: string; success: boolean }>>`
      select result, success from run_command_on_workers('show plan_cache_mode')`;
    expect(fromCoordinator.length).toBeGreaterThan(0);
    for (const each of fromCoordinator) expect(each).toEqual({ result: "force_custom_plan", success: true });
  });

  it(`does not grow with ${CALLS} creations, settles and list pages`, async () => {
    // Past the calls after which a session would switch to a cached generic plan.
    for (let index = 0; index < 10; index++) await createAndSettle(index);
    const before = await sessionBytes();
    for (let index = 10; index < 10 + CALLS; index++) await createAndSettle(index);
    const growth = (await sessionBytes()) - before;
    expect(growth, `grew by ${growth} bytes`).toBeLessThan(MAX_GROWTH_BYTES);
    const [counted] = await worker<[{ count: string }]>`
      select count(*) from payments where merchant_id = ${merchantId}::bigint and status = 'completed'`;
    expect(Number(counted.count)).toBe(10 + CALLS);
  });
});
