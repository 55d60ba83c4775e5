// Docs run (DESIGN.md, "Event stream, SDK and CLI"): every sample docs/ presents as a test or a command to
// paste is run by the test suite from the very file the docs include. Run by `npm run lint`; it fails when
//
// - a ```ts / ```sh (or js, bash, shell, console) block in docs/ is neither marked with the file it shows,
//   `<!-- sample: docs/samples/NAME -->` on the line before its fence, nor marked `<!-- not run: WHY -->`
//   AND listed in NOT_RUN below (both: a block is not set aside without this file saying why);
// - a marked block differs from its file (byte for byte, once the fence's indentation is taken off);
// - a sample's file is run by nothing: a `*.spec.ts` by Playwright's docs-samples project
//   (playwright.config.ts), a `*.sh` by tests/integration/doc-samples.test.ts, which names each one;
// - docs/samples holds a file no block shows and HELPERS does not explain;
// - a command to paste hides in prose: an inline `curl …` with a URL, or `npx payments <command>`. Such a
//   command goes in a marked block. Inline command syntax with placeholders (`npm run admin -- token:create
//   --email E …`, `payments get <path>`) is reference, not a sample: the admin CLI's and the CLI's own tests
//   run those commands (tests/integration/admin-cli*.test.ts, cli*.test.ts).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SAMPLES_DIR = "docs/samples";
const RUNNABLE_LANGUAGES = new Set([
  "ts",
  "tsx",
  "typescript",
  "js",
  "mjs",
  "javascript",
  "sh",
  "bash",
  "shell",
  "zsh",
  "console",
]);
const LANGUAGE_OF = { ".ts": ["ts", "typescript"], ".sh": ["sh", "bash", "shell"] };

/** Blocks shown but not run, each named by its page and its first line, with the reason. */
const NOT_RUN = [
  {
    doc: "docs/operations.md",
    first: 'psql -h db1.internal -c "alter system set default_transaction_read_only = on"',
    reason:
      "A switchover on a reader's own formation (db1.internal). scripts/ci-failover.sh switchover runs the same steps, and tests/integration/failover.test.ts runs it under load in CI's failover pass (.ci/run).",
  },
  {
    doc: "docs/operations.md",
    first: "pg_autoctl create monitor  --pgdata /srv/monitor",
    reason:
      "pg_auto_failover set up by hand, for a reader's own machines: it needs root, Debian's postgresql-15-auto-failover and keepers that run until stopped. CI builds the same formation with scripts/ci-failover.sh and runs tests/integration/failover.test.ts on it (.ci/run).",
  },
  {
    doc: "docs/scaling.md",
    first: "sudo ../shared/citus/install.sh",
    reason:
      "Citus installed as root into this machine's PostgreSQL, then a server that runs until stopped. CI runs the same scripts (../shared/citus/install.sh, scripts/citus-cluster.sh) and the Citus suites on the cluster (.ci/run).",
  },
  {
    doc: "docs/scaling.md",
    first: "# The coordinator's processes first: they migrate, distribute, and run the background services.",
    reason:
      "Servers on a reader's own Citus nodes, each running until stopped. tests/integration/citus-any-node.test.ts starts a server on a worker of CI's local cluster the same way (DATABASE_URL a worker's) and uses it over HTTP (.ci/run, the Citus pass).",
  },
];

/** Files in docs/samples that no block shows, and why they are there. */
const HELPERS = {
  "docs/samples/shop.ts":
    "what checkout.spec.ts imports: the shop (return page and webhook route) the sample stands in for; the reader's own app plays its part",
};

/** What runs a sample file, and whether it does. */
const RUNNERS = [
  {
    test: (file) => file.endsWith(".spec.ts"),
    by: "playwright.config.ts (project docs-samples)",
    runs: () => /testDir:\s*"docs\/samples"/.test(read("playwright.config.ts")),
  },
  {
    test: (file) => file.endsWith(".sh"),
    by: "tests/integration/doc-samples.test.ts",
    runs: (file) => read("tests/integration/doc-samples.test.ts").includes(`"${path.basename(file)}"`),
  },
];

function read(file) {
  return readFileSync(path.join(root, file), "utf8");
}

/** Markdown files under docs/, recursively. */
function markdownFiles(directory) {
  return readdirSync(path.join(root, directory), { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(directory, entry.name);
    if (entry.isDirectory()) return markdownFiles(file);
    return entry.name.endsWith(".md") ? [file] : [];
  });
}

/**
 * The fenced blocks of a Markdown text (fences may be indented, as in a list): the language, the content with
 * the fence's indentation taken off each line, the line of the fence, and the last non-blank line before it.
 */
export function fencedBlocks(markdown) {
  const lines = markdown.split("\n");
  const blocks = [];
  let open = null;
  lines.forEach((line, index) => {
    const fence = /^(\s*)(`{3,}|~{3,})\s*([^`\s]*)/.exec(line);
    if (open === null) {
      if (!fence) return;
      let before = index - 1;
      while (before >= 0 && lines[before].trim() === "") before -= 1;
      open = {
        indent: fence[1].length,
        marker: fence[2],
        language: fence[3].toLowerCase(),
        line: index + 1,
        before: before >= 0 ? lines[before].trim() : "",
        content: [],
      };
      return;
    }
    if (fence && fence[2].startsWith(open.marker) && fence[3] === "") {
      blocks.push({ ...open, content: open.content.join("\n") });
      open = null;
      return;
    }
    const indent = /^\s*/.exec(line)[0].length;
    open.content.push(line.slice(Math.min(indent, open.indent)));
  });
  return blocks;
}

/** Inline code spans outside fenced blocks (a span may go on to the next line), with their line numbers. */
function inlineCode(markdown) {
  let fence = null;
  const prose = markdown.split("\n").map((line) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line);
    if (opening) {
      if (fence === null) fence = opening[1];
      else if (opening[1].startsWith(fence)) fence = null;
      return "";
    }
    return fence === null ? line : "";
  });
  const text = prose.join("\n");
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => ({
    text: match[1].replace(/\s*\n\s*/g, " "),
    line: text.slice(0, match.index).split("\n").length,
  }));
}

const problems = [];
const shown = new Set();
const notRunSeen = new Set();
let checkedBlocks = 0;

for (const doc of markdownFiles("docs")) {
  const markdown = read(doc);
  for (const block of fencedBlocks(markdown)) {
    if (!RUNNABLE_LANGUAGES.has(block.language)) continue;
    checkedBlocks += 1;
    const where = `${doc}:${block.line}`;
    const sample = /^<!--\s*sample:\s*(\S+)\s*-->$/.exec(block.before);
    const notRun = /^<!--\s*not run:\s*(.*?)\s*-->$/.exec(block.before);
    if (sample) {
      const file = sample[1];
      if (!file.startsWith(`${SAMPLES_DIR}/`) || !existsSync(path.join(root, file))) {
        problems.push(`${where}: the block is marked with ${file}, which is no file of ${SAMPLES_DIR}/`);
        continue;
      }
      shown.add(file);
      const expected = LANGUAGE_OF[path.extname(file)];
      if (expected && !expected.includes(block.language))
        problems.push(`${where}: ${file} is shown as \`\`\`${block.language}; use \`\`\`${expected[0]}`);
      const text = read(file).replace(/\n$/, "");
      if (block.content !== text) {
        const blockLines = block.content.split("\n");
        const fileLines = text.split("\n");
        const first = blockLines.findIndex((line, index) => line !== fileLines[index]);
        const at = first === -1 ? Math.min(blockLines.length, fileLines.length) : first;
        problems.push(
          `${where}: the block differs from ${file} at its line ${at + 1}:\n    docs: ${JSON.stringify(blockLines[at] ?? "(nothing)")}\n    file: ${JSON.stringify(fileLines[at] ?? "(nothing)")}`,
        );
      }
    } else if (notRun) {
      const listed = NOT_RUN.find(
        (entry) => entry.doc === doc && block.content.split("\n")[0].startsWith(entry.first),
      );
      if (!notRun[1]) problems.push(`${where}: a "not run" marker says why: <!-- not run: WHY -->`);
      if (!listed)
        problems.push(
          `${where}: the block is marked "not run" but NOT_RUN in scripts/check-doc-samples.mjs does not name it`,
        );
      else notRunSeen.add(listed);
    } else {
      problems.push(
        `${where}: a \`\`\`${block.language} block with no marker: put its text in ${SAMPLES_DIR}/, run it in the tests, and mark it <!-- sample: ${SAMPLES_DIR}/NAME --> (or <!-- not run: WHY --> and list it in scripts/check-doc-samples.mjs)`,
      );
    }
  }
  for (const span of inlineCode(markdown)) {
    const text = span.text.trim();
    const curl = /^curl\s/.test(text) && /(https?:\/\/|localhost|\/api\/)/.test(text);
    const cli = /^npx payments\s+\S/.test(text);
    if (curl || cli)
      problems.push(
        `${doc}:${span.line}: \`${text.slice(0, 60)}${text.length > 60 ? "…" : ""}\` is a command to paste in prose: show it as a marked sample block`,
      );
  }
}

for (const entry of NOT_RUN)
  if (!notRunSeen.has(entry))
    problems.push(
      `NOT_RUN names a block of ${entry.doc} starting "${entry.first}" that is not there, marked <!-- not run: … -->`,
    );

const sampleFiles = readdirSync(path.join(root, SAMPLES_DIR)).map((name) => `${SAMPLES_DIR}/${name}`);
for (const file of sampleFiles) {
  if (!shown.has(file) && !(file in HELPERS))
    problems.push(`${file}: no block of docs/ shows it, and HELPERS does not say why it is there`);
}
for (const file of shown) {
  const runner = RUNNERS.find((candidate) => candidate.test(file));
  if (!runner)
    problems.push(`${file}: no runner takes this kind of sample (RUNNERS in scripts/check-doc-samples.mjs)`);
  else if (!runner.runs(file)) problems.push(`${file}: ${runner.by} does not run it`);
}

if (problems.length > 0) {
  console.error(`The documentation's samples:\n${problems.map((problem) => `- ${problem}`).join("\n")}`);
  process.exit(1);
}
console.log(
  `Doc samples: ${checkedBlocks} code blocks in docs/, ${shown.size} shown from ${SAMPLES_DIR}/ and run by the tests, ${NOT_RUN.length} not run (${NOT_RUN.map((entry) => entry.doc).join(", ")}).`,
);
