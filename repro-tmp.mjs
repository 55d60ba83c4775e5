import postgres from "postgres";
process.on("unhandledRejection", (e) => console.log("UNHANDLED:", e.code, e.message, "\n", e.stack));
const sql = postgres("postgres://postgres@127.0.0.1:6440/ops_check", { prepare: false, max: 4, connect_timeout: 2, idle_timeout: 60 });
await sql`select 1`; console.log("warm");
const tick = async (label) => {
  const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => i % 2 ? sql.unsafe("select 1", [], { prepare: false }) : sql.begin(async (tx) => { await tx.unsafe("select 1"); await tx.unsafe("select 2"); })));
  console.log(label, results.map((r) => r.status === "fulfilled" ? "ok" : r.reason.code).join(" "));
};
await tick("before");
const { execSync } = await import("node:child_process");
execSync(`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main stop`);
for (let i = 0; i < 4; i++) { await tick("down " + i); await new Promise((r) => setTimeout(r, 500)); }
execSync(`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`);
for (let i = 0; i < 6; i++) { await tick("up " + i); await new Promise((r) => setTimeout(r, 1000)); }
await sql.end();
