// The `payments` CLI as a user runs it: the built bin as a child process, with its own config directory.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(root, "packages/cli/bin/payments.js");

export type CliEnv = { apiUrl?: string; apiKey?: string; configDir?: string };

function cliEnv(env: CliEnv): NodeJS.ProcessEnv {
  const inherited = { ...process.env };
  delete inherited.PAYMENTS_API_URL;
  delete inherited.PAYMENTS_API_KEY;
  return {
    ...inherited,
    NO_COLOR: "1",
    XDG_CONFIG_HOME: env.configDir ?? mkdtempSync(path.join(tmpdir(), "payments-cli-")),
    ...(env.apiUrl ? { PAYMENTS_API_URL: env.apiUrl } : {}),
    ...(env.apiKey ? { PAYMENTS_API_KEY: env.apiKey } : {}),
  };
}

/** Runs a command to its end: exit code, stdout and stderr. */
export function runCli(args: string[], env: CliEnv = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: root,
    env: cliEnv(env),
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * runCli without blocking: the test process keeps serving its event loop while the command runs, so its own
 * kept-alive connections to the server see the server close them (after spawnSync, fetch could reuse a
 * connection the server had closed meanwhile: "other side closed").
 */
export function runCliAsync(
  args: string[],
  env: CliEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: root,
      env: cliEnv(env),
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 60_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export type RunningCli = {
  /** Every stdout line so far, parsed (the commands run with --json). */
  lines: () => Array<Record<string, unknown>>;
  waitForLine: (predicate: (line: Record<string, unknown>) => boolean, timeoutMs?: number) => Promise<void>;
  stop: () => Promise<number | null>;
  /** Kills it at once, as a crash or `kill -9` does: nothing runs after. */
  kill: () => Promise<void>;
  stderr: () => string;
};

/** Starts a long-running command (`listen … --json`). */
export function startCli(args: string[], env: CliEnv = {}): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: root,
    env: cliEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const lines = () =>
    stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    lines,
    stderr: () => stderr,
    async waitForLine(predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!lines().some(predicate)) {
        if (child.exitCode !== null) throw new Error(`The CLI exited (${child.exitCode}): ${stderr}`);
        if (Date.now() > deadline) throw new Error(`Timed out waiting for a CLI line; stdout:\n${stdout}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGINT");
      return exited;
    },
    async kill() {
      if (child.exitCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
