// The operators' usage (scripts/admin-command-specs.ts) and the commands that run (scripts/admin-commands.ts)
// are two files, so that `--help` loads no domain code: each command listed runs, and each that runs is listed.
import { expect, it } from "vitest";
import { adminCommandSpecs } from "../../scripts/admin-command-specs";
import { adminCommands } from "../../scripts/admin-commands";

it("lists exactly the commands that run", () => {
  expect(Object.keys(adminCommandSpecs).sort()).toEqual(Object.keys(adminCommands).sort());
});
