#!/usr/bin/env node
// The `payments` command: the CLI bundled by `npm run build` into dist/index.js.
import module from "node:module";

// Node 22.1 and later can keep V8's compiled code of dist/ between runs (in the OS's temporary directory);
// Node 20 has no such cache, and this is skipped. Imported after, so that the cache applies to it.
module.enableCompileCache?.();
await import("../dist/index.js");
