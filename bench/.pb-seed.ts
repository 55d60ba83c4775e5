import { merchantWorkerPort, seedPostgresAndCitus, coordinatorPort } from "./citus-setup";
const bench = await seedPostgresAndCitus("payments_pgbench", 2000);
const port = await merchantWorkerPort(bench.nodeUrl(coordinatorPort), bench.citusSeed.merchantId);
console.log(JSON.stringify({ pg: bench.postgresSeed.merchantId, citus: bench.citusSeed.merchantId, port }));
process.exit(0);
