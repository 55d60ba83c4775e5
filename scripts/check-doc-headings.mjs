// The documentation keeps what it had: every heading the README had before it was split into docs/
// (docs/headings-before-split.txt) is still a heading of README.md or of a docs/*.md file, whatever its
// level, and every relative link in those files and in the packages' READMEs names a file that exists
// (and, with an anchor, a heading of that file); BENCHMARKS.md's links too. Run by `npm run lint`.
//
//   node scripts/check-doc-headings.mjs                     the check
//   node scripts/check-doc-headings.mjs --headings FILE.md  print FILE's headings, one a line (made the list)
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The `#` lines of a Markdown text, outside fenced code blocks (fences may be indented, as in a list). */
export function headings(markdown) {
  const found = [];
  let fence = null;
  for (const line of markdown.split("\n")) {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line);
    if (opening) {
      if (fence === null) fence = opening[1];
      else if (opening[1].startsWith(fence)) fence = null;
      continue;
    }
    if (fence === null && /^#{1,6}\s/.test(line)) found.push(line.trimEnd());
  }
  return found;
}

/** A heading's text without its level, for comparing across levels. */
const headingText = (heading) => heading.replace(/^#+\s*/, "").trim();

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown) {
  const seen = new Map();
  const result = new Set();
  for (const heading of headings(markdown)) {
    const base = headingText(heading)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Markdown links `[text](target)` outside code: fenced blocks and inline code spans are left out. */
function links(markdown) {
  const found = [];
  let fence = null;
  for (const line of markdown.split("\n")) {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line);
    if (opening) {
      if (fence === null) fence = opening[1];
      else if (opening[1].startsWith(fence)) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const prose = line.replace(/`[^`]*`/g, "");
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) found.push(match[1]);
  }
  return found;
}

if (process.argv[2] === "--headings") {
  for (const heading of headings(readFileSync(process.argv[3], "utf8"))) console.log(heading);
  process.exit(0);
}

const docsDir = path.join(root, "docs");
const docFiles = [
  "README.md",
  ...readdirSync(docsDir)
    .filter((name) => name.endsWith(".md"))
    .map((name) => path.join("docs", name)),
];
const packageReadmes = readdirSync(path.join(root, "packages"))
  .map((name) => path.join("packages", name, "README.md"))
  .filter((file) => existsSync(path.join(root, file)));
const problems = [];

const present = new Set();
for (const file of docFiles) {
  for (const heading of headings(readFileSync(path.join(root, file), "utf8")))
    present.add(headingText(heading));
}
const listed = readFileSync(path.join(docsDir, "headings-before-split.txt"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "");
for (const heading of listed) {
  if (!present.has(headingText(heading))) {
    problems.push(
      `"${headingText(heading)}" (README before the split) is no heading of README.md or docs/*.md`,
    );
  }
}

const linking = [...docFiles, "BENCHMARKS.md", ...packageReadmes];
for (const file of linking) {
  for (const target of links(readFileSync(path.join(root, file), "utf8"))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: and the like
    const [filePart, anchor] = target.split("#", 2);
    const resolved =
      filePart === "" ? path.join(root, file) : path.resolve(path.dirname(path.join(root, file)), filePart);
    if (!resolved.startsWith(root) || !existsSync(resolved)) {
      problems.push(`${file}: the link to ${target} names no file of the repository`);
      continue;
    }
    if (anchor !== undefined && resolved.endsWith(".md") && statSync(resolved).isFile()) {
      if (!anchors(readFileSync(resolved, "utf8")).has(decodeURIComponent(anchor))) {
        problems.push(`${file}: the link to ${target} names no heading of ${path.relative(root, resolved)}`);
      }
    }
  }
}

if (problems.length > 0) {
  console.error(`The documentation lost something:\n${problems.map((problem) => `- ${problem}`).join("\n")}`);
  process.exit(1);
}
console.log(
  `Documentation: ${listed.length} headings from before the split all present; links in ${linking.length} files resolve.`,
);
