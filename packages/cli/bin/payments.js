#!/usr/bin/env node
// The `payments` command: the compiled CLI (`npm run build` writes dist/).
import "../dist/index.js";
