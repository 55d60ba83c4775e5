// Starts the real production build (`next start`) for a test run, on PGlite in a fresh temp directory or on
// the PostgreSQL that DATABASE_URL names, after seeding one merchant through the admin CLI.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export type AdminResult = { status: number | null; stdout: string; stderr: string };
export type SeedMerchant = { merchant_id: number; user_id: number; email: string; password: string; name: string };

const root = path.resolve(import.meta.dirname, "../..");

export function testEnvironment(name: string, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    AUTH_SECRET: randomBytes(33).toString("base64"),
    NEXT_TELEMETRY_DISABLED: "1",
  };
  if (!env.DATABASE_URL) env.PGLITE_DATA_DIR = path.join(mkdtempSync(path.join(tmpdir(), `payments-${name}-`)), "pglite");
  return env;
}

/** Runs `npm run admin -- …` the way an operator would (without npm's banner). */
export function runAdmin(args: string[], env: Record<string, string | undefined>): AdminResult {
  const result = spawnSync(path.join(root, "node_modules/.bin/tsx"), ["--conditions=react-server", "scripts/admin.ts", ...args], {
    cwd: root,
    env: env as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export function uniqueEmail(label: string): string {
  return `${label}-${Date.now()}-${randomBytes(3).toString("hex")}@example.test`;
}

export type TestServer = { baseUrl: string; env: NodeJS.ProcessEnv; seed: SeedMerchant; stop: () => Promise<void> };

export async function startTestServer(name: string, port: number): Promise<TestServer> {
  const env = testEnvironment(name, port);
  const seed = { email: uniqueEmail(`seed-${name}`), password: "seed password 123", name: `Seed ${name}` };
  const created = runAdmin(["merchant:create", "--email", seed.email, "--password", seed.password, "--name", seed.name, "--json"], env);
  if (created.status !== 0) throw new Error(`Seeding failed: ${created.stderr}`);
  const seedMerchant = { ...seed, ...(JSON.parse(created.stdout) as { merchant_id: number; user_id: number }) };

  const baseUrl = `http://127.0.0.1:${port}`;
  // A server left over from another run would answer in this one's place.
  if (await fetch(baseUrl).then(() => true, () => false)) throw new Error(`Port ${port} is already in use.`);
  const server: ChildProcess = spawn(path.join(root, "node_modules/.bin/next"), ["start", "-p", String(port)], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  server.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`Server exited early:\n${output}`);
    const ready = await fetch(`${baseUrl}/login`).then((response) => response.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`Server did not start in time:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  return {
    baseUrl,
    env,
    seed: seedMerchant,
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once("exit", resolve));
        server.kill("SIGTERM");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (server.exitCode === null) server.kill("SIGKILL");
      }
      if (env.PGLITE_DATA_DIR) rmSync(path.dirname(env.PGLITE_DATA_DIR), { recursive: true, force: true });
    },
  };
}
