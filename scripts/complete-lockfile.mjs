// `node scripts/complete-lockfile.mjs` after `npm install` on a registry mirror that serves only some
// platforms' native builds (this project's build machines: Linux x64/arm64 only). npm then leaves the other
// platforms' optional packages (@next/swc-darwin-arm64, …) out of package-lock.json, and `npm ci` refuses
// the lock file as out of sync. This adds each missing one as npm would: name, the exact version its parent
// pins, and the os/cpu/libc its name states, so `npm ci` skips it here and fetches it on that platform.
import { readFileSync, writeFileSync } from "node:fs";

const lockPath = "package-lock.json";
const lock = JSON.parse(readFileSync(lockPath, "utf8"));
const packages = lock.packages;

/** "darwin-arm64", "linux-arm-gnueabihf", "win32-x64-msvc", "wasm32-wasi" → npm's platform fields. */
function platformOf(suffix) {
  const [os, cpu, abi = ""] = suffix.split("-");
  if (os === "wasm32") return { cpu: ["wasm32"] };
  return {
    cpu: [cpu],
    os: [os],
    ...(os === "linux" ? { libc: [abi.startsWith("musl") ? "musl" : "glibc"] } : {}),
  };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (packages[key] || packages[`${path}/${key}`]) continue;
    const family = name.replace(/-(android|darwin|freebsd|linux|win32|openharmony|wasm32)-.*$/, "");
    const suffix = name.slice(family.length + 1);
    if (family === name || !/^\d+\.\d+\.\d+/.test(range)) continue;
    // A present sibling (the Linux build) says whether it is a dev dependency and which engines it needs.
    const sibling = Object.entries(packages).find(([other]) =>
      other.startsWith(`node_modules/${family}-`),
    )?.[1];
    const { cpu, os, libc } = platformOf(suffix);
    // In the order npm writes an entry's keys, so a later `npm install` leaves the file as it is.
    packages[key] = {
      version: range,
      cpu,
      ...(sibling?.dev ? { dev: true } : {}),
      ...(libc ? { libc } : {}),
      ...(sibling?.license ? { license: sibling.license } : {}),
      optional: true,
      ...(os ? { os } : {}),
      ...(sibling?.engines ? { engines: sibling.engines } : {}),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : 1)),
);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`Added ${added} optional platform packages to ${lockPath}.`);
