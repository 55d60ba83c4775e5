// `npm run lint` runs this: it fails when lib/'s folders import each other in a circle (payments → webhooks →
// payments), even where no file does, and on any file cycle (as `npx madge --circular` does). Dependencies point
// one way: platform at the bottom, payments the lowest domain, checkout, refunds and webhooks above it, then
// events, retention, worker and api. A type-only import counts: it still ties the folders' code together.
import madge from "madge";

const result = await madge("lib", {
  fileExtensions: ["ts", "tsx"],
  tsConfig: "tsconfig.json",
  baseDir: ".",
});
const graph = result.obj();

/** "lib/payments/outbox.ts" → "payments"; a file outside lib/ (db/, the packages) is not a folder of lib. */
const folderOf = (file) => (file.startsWith("lib/") ? (file.split("/").slice(1, -1)[0] ?? ".") : undefined);

/** folder → folder it imports → one file import that shows it (the first found). */
const edges = new Map();
for (const [file, dependencies] of Object.entries(graph)) {
  const from = folderOf(file);
  if (from === undefined) continue;
  for (const dependency of dependencies) {
    const to = folderOf(dependency);
    if (to === undefined || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${file} → ${dependency}`);
  }
}

// Tarjan's strongly connected components: every component of more than one folder holds a cycle.
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const components = [];
let next = 0;
function visit(folder) {
  index.set(folder, next);
  low.set(folder, next);
  next += 1;
  stack.push(folder);
  onStack.add(folder);
  for (const to of edges.get(folder)?.keys() ?? []) {
    if (!index.has(to)) {
      visit(to);
      low.set(folder, Math.min(low.get(folder), low.get(to)));
    } else if (onStack.has(to)) {
      low.set(folder, Math.min(low.get(folder), index.get(to)));
    }
  }
  if (low.get(folder) === index.get(folder)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== folder);
    if (component.length > 1) components.push(component.sort());
  }
}
for (const folder of [...edges.keys()].sort()) if (!index.has(folder)) visit(folder);

const fileCycles = result.circular();
for (const component of components) {
  console.error(`Folder cycle in lib/: ${component.join(", ")}. The imports between them:`);
  for (const from of component)
    for (const [to, example] of edges.get(from) ?? [])
      if (component.includes(to)) console.error(`  ${from} → ${to}  (${example})`);
}
for (const cycle of fileCycles) console.error(`File cycle: ${cycle.join(" → ")}`);
if (components.length > 0 || fileCycles.length > 0) {
  console.error("Make the arrows point one way: move what the lower folder needs into it, or hand it in.");
  process.exit(1);
}
console.log(
  `No folder cycle in lib/ (${edges.size} folders that import others) and no file cycle (${Object.keys(graph).length} files).`,
);
