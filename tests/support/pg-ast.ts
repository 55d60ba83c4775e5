// Small readers for the JSON syntax tree libpg-query returns: every node is wrapped in an object with one key,
// its type (`{ "SelectStmt": { ... } }`), and lists are arrays of such wrappers.

export type Node = Record<string, unknown>;

export function node(value: unknown): Node | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Node) : undefined;
}
export function nodes(value: unknown): Node[] {
  return Array.isArray(value) ? (value as Node[]) : [];
}
/** The single key of a wrapped node (`{ SelectStmt: {...} }`) and its body. */
export function unwrap(value: unknown): [string, Node] | undefined {
  const wrapped = node(value);
  const key = wrapped && Object.keys(wrapped)[0];
  const body = key ? node(wrapped[key]) : undefined;
  return key && body ? [key, body] : undefined;
}
export function str(value: unknown): string | undefined {
  return node(node(value)?.String)?.sval as string | undefined;
}

/** The top-level conjuncts of a condition: `a AND (b AND c)` gives a, b, c. */
export function splitAnd(value: unknown): Node[] {
  const [kind, body] = unwrap(value) ?? ["", {}];
  if (!kind) return [];
  if (kind === "BoolExpr" && body.boolop === "AND_EXPR") return nodes(body.args).flatMap(splitAnd);
  return [node(value)!];
}

/** Depth-first over wrapped nodes; `visit` returns false to skip a node's children. */
export function walk(value: unknown, visit: (kind: string, body: Node) => boolean): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, visit);
    return;
  }
  const wrapped = node(value);
  if (!wrapped) return;
  for (const [key, child] of Object.entries(wrapped)) {
    const body = node(child);
    if (/^[A-Z]/.test(key) && body) {
      if (visit(key, body)) walk(Object.values(body), visit);
    } else walk(child, visit);
  }
}
