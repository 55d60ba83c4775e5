// Which tenant tables a SQL statement reads or writes without constraining merchant_id, judged on the syntax
// tree of PostgreSQL's own parser (libpg-query). A tenant table is one with a merchant_id column; a
// reference to one is scoped when, at its level of the query (a SELECT, an UPDATE or DELETE with its FROM
// or USING, each CTE and subquery on its own):
//   1. a conjunct of WHERE or of a JOIN's ON (the top-level ANDs: an OR scopes nothing) is
//      `merchant_id = <bound>`, `merchant_id IN (...)`, `merchant_id = ANY(...)` or `merchant_id IN (select ...)`,
//      where <bound> names no column of that level (a parameter, a constant, a scalar subquery, which is
//      checked on its own, or a scoped reference of an enclosing level: a correlated subquery);
//   2. or it is joined `a.merchant_id = b.merchant_id` (or JOIN ... USING (merchant_id)) to a scoped
//      reference: a tenant table, `merchants` pinned by `id`, or a CTE/subquery whose tenant tables are all
//      scoped;
//   3. or it is the target of an INSERT whose column list supplies merchant_id.
// Anything else on a tenant table is reported, as is any statement the parser rejects or this file does
// not understand (MERGE): the check fails loudly rather than passing what it cannot read.
import { loadModule, parseSync } from "libpg-query";
import { node, nodes, splitAnd, str, unwrap, walk, type Node } from "./pg-ast";

/** One unscoped reference: the table, the name the statement gives it, and whether it may cross tenants. */
export type UnscopedReference = { table: string; as: string; crossTenant: boolean };

export type ScopingRules = {
  /** Tables carrying merchant_id: every reference must be scoped. */
  tenantTables: ReadonlySet<string>;
  /**
   * Whether this statement may reach this table across merchants (an allowlist). Such a reference is still
   * reported, marked, and counts as scoped for what joins it, so only the unlisted rest stands out.
   * `pinnedBy`: the reference's columns that its level sets equal to a bound value (`id = $1`).
   */
  crossTenant?: (sql: string, table: string, pinnedBy: ReadonlySet<string>) => boolean;
};

const MERCHANT_ID = "merchant_id";
/** `merchants.id` is the merchant id itself: a merchants row pinned by id scopes what joins it. */
const ROOT_TABLE = "merchants";

type Reference = {
  table?: string;
  as: string;
  /** The column that holds the merchant id here (merchant_id, or id on merchants); none: it cannot scope. */
  key?: string;
  scoped: boolean;
  /** Whether it must end up scoped (a tenant table). */
  tenant: boolean;
  /** Its columns set equal to a bound value at its level. */
  pinnedBy?: Set<string>;
};

type Level = { references: Reference[]; parent?: Level };
type Ctes = ReadonlyMap<string, boolean>;

export class ScopingChecker {
  private unscoped: UnscopedReference[] = [];
  private sql = "";

  private constructor(private readonly rules: ScopingRules) {}

  /** Loads the parser's WebAssembly once; then `check` is synchronous. */
  static async create(rules: ScopingRules): Promise<ScopingChecker> {
    await loadModule();
    return new ScopingChecker(rules);
  }

  /** The statement's unscoped tenant references; throws when it cannot be parsed or understood. */
  check(sql: string): UnscopedReference[] {
    this.unscoped = [];
    this.sql = sql;
    const parsed = parseSync(sql) as { stmts?: Array<{ stmt: unknown }> };
    for (const { stmt } of parsed.stmts ?? []) this.statement(stmt, undefined, new Map());
    return this.unscoped;
  }

  /** Visits a DML statement; returns whether every tenant table in it is scoped (then it can scope a join). */
  private statement(value: unknown, parent: Level | undefined, outerCtes: Ctes): boolean {
    const unwrapped = unwrap(value);
    if (!unwrapped) return true;
    const [kind, body] = unwrapped;
    if (kind === "MergeStmt") throw new Error("MERGE is not understood by the tenant-scoping check");
    if (!["SelectStmt", "InsertStmt", "UpdateStmt", "DeleteStmt"].includes(kind)) return true; // DDL, SET, …
    const before = this.unscoped.length;
    const ctes = new Map(outerCtes);
    for (const cte of nodes(node(body.withClause)?.ctes)) {
      const { ctename, ctequery } = node(cte.CommonTableExpr) ?? {};
      ctes.set(ctename as string, this.statement(ctequery, parent, ctes));
    }
    if (kind === "SelectStmt" && body.op && body.op !== "SETOP_NONE") {
      this.statement({ SelectStmt: body.larg }, parent, ctes);
      this.statement({ SelectStmt: body.rarg }, parent, ctes);
    } else if (kind === "InsertStmt") this.insert(body, parent, ctes);
    else this.level(kind, body, parent, ctes);
    return !this.unscoped.slice(before).some((reference) => !reference.crossTenant);
  }

  private insert(body: Node, parent: Level | undefined, ctes: Ctes): void {
    const target = this.reference(node(body.relation) ?? {}, ctes);
    const columns = nodes(body.cols).map((col) => node(col.ResTarget)?.name);
    if (target.tenant && !columns.includes(MERCHANT_ID)) this.report(target);
    this.statement(body.selectStmt, parent, ctes);
    // ON CONFLICT and RETURNING act on the inserted row; only their subqueries need a look.
    this.subqueries([body.onConflictClause, body.returningList], { references: [target], parent }, ctes);
  }

  /** A SELECT, UPDATE or DELETE: its references, scoped by its conjuncts, then its subqueries. */
  private level(kind: string, body: Node, parent: Level | undefined, ctes: Ctes): void {
    const level: Level = { references: [], parent };
    const conjuncts: Node[] = [];
    const links: Array<[Reference[], Reference[]]> = [];
    if (kind !== "SelectStmt") level.references.push(this.reference(node(body.relation) ?? {}, ctes));
    const from = nodes(kind === "DeleteStmt" ? body.usingClause : body.fromClause);
    const lateral: unknown[] = [];
    for (const item of from)
      level.references.push(...this.fromItem(item, parent, ctes, conjuncts, links, lateral));
    conjuncts.push(...splitAnd(body.whereClause));
    const pairs = this.scope(level, conjuncts, links);
    // Listed cross-tenant references first: they scope what joins them on merchant_id.
    const unscoped = level.references.filter((reference) => reference.tenant && !reference.scoped);
    const listed = unscoped.filter((reference) => this.isCrossTenant(reference));
    for (const reference of listed) this.report(reference);
    spread(pairs);
    for (const reference of unscoped) if (!reference.scoped) this.report(reference);
    for (const subquery of lateral) this.statement(subquery, level, ctes);
    // The conjuncts hold WHERE and every JOIN's ON; the rest of WHERE is under them.
    this.subqueries(
      [body.targetList, body.havingClause, body.valuesLists, body.returningList, conjuncts],
      level,
      ctes,
    );
  }

  private fromItem(
    item: Node,
    parent: Level | undefined,
    ctes: Ctes,
    conjuncts: Node[],
    links: Array<[Reference[], Reference[]]>,
    lateral: unknown[],
  ): Reference[] {
    const [kind, body] = unwrap(item) ?? ["", {}];
    if (kind === "RangeVar") return [this.reference(body, ctes)];
    if (kind === "JoinExpr") {
      const left = this.fromItem(node(body.larg) ?? {}, parent, ctes, conjuncts, links, lateral);
      const right = this.fromItem(node(body.rarg) ?? {}, parent, ctes, conjuncts, links, lateral);
      conjuncts.push(...splitAnd(body.quals));
      if (nodes(body.usingClause).some((column) => str(column) === MERCHANT_ID)) links.push([left, right]);
      return [...left, ...right];
    }
    const as = (node(body.alias)?.aliasname as string | undefined) ?? "?";
    if (kind === "RangeSubselect" && body.lateral) {
      // May name this level's references: visited once they are scoped (see level()).
      lateral.push(body.subquery);
      return [{ as, scoped: false, tenant: false }];
    }
    if (kind === "RangeSubselect") {
      const scoped = this.statement(body.subquery, parent, ctes);
      return [{ as, key: MERCHANT_ID, scoped, tenant: false }];
    }
    // A set-returning function (unnest($1)) over parameters: no tenant rows, and it scopes nothing.
    return [{ as, scoped: false, tenant: false }];
  }

  private reference(rangeVar: Node, ctes: Ctes): Reference {
    const name = rangeVar.relname as string;
    const as = (node(rangeVar.alias)?.aliasname as string | undefined) ?? name;
    if (!rangeVar.schemaname && ctes.has(name))
      return { as, key: MERCHANT_ID, scoped: ctes.get(name) ?? false, tenant: false };
    if (this.rules.tenantTables.has(name))
      return { table: name, as, key: MERCHANT_ID, scoped: false, tenant: true };
    return { table: name, as, key: name === ROOT_TABLE ? "id" : undefined, scoped: false, tenant: false };
  }

  /** Marks references scoped by bound conditions, then spreads scoping along merchant-id joins. */
  private scope(
    level: Level,
    conjuncts: Node[],
    links: Array<[Reference[], Reference[]]>,
  ): Array<[Reference, Reference]> {
    const pairs: Array<[Reference, Reference]> = [];
    for (const [left, right] of links)
      for (const a of left) for (const b of right) if (a.key && b.key) pairs.push([a, b]);
    for (const conjunct of conjuncts) {
      const [kind, body] = unwrap(conjunct) ?? ["", {}];
      if (kind === "SubLink" && body.subLinkType === "ANY_SUBLINK") {
        for (const reference of this.merchantColumn(body.testexpr, level)) reference.scoped = true;
        continue;
      }
      if (kind !== "A_Expr" || str(nodes(body.name)[0]) !== "=") continue;
      if (body.kind === "AEXPR_OP") this.pin(body.lexpr, body.rexpr, level);
      if (!["AEXPR_OP", "AEXPR_IN", "AEXPR_OP_ANY"].includes(body.kind as string)) continue;
      const left = this.merchantColumn(body.lexpr, level);
      const right = body.kind === "AEXPR_OP" ? this.merchantColumn(body.rexpr, level) : [];
      if (left.length > 0 && right.length > 0) {
        for (const a of left) for (const b of right) pairs.push([a, b]);
        continue;
      }
      const [column, other] = left.length > 0 ? [left, body.rexpr] : [right, body.lexpr];
      if (column.length > 0 && this.isBound(other, level))
        for (const reference of column) reference.scoped = true;
    }
    spread(pairs);
    return pairs;
  }

  /** Records `column = <bound>` (either way round) on the references of this level the column belongs to. */
  private pin(left: unknown, right: unknown, level: Level): void {
    for (const [column, other] of [
      [left, right],
      [right, left],
    ]) {
      const found = this.column(column, { references: level.references });
      if (!found || !this.isBound(other, level)) continue;
      for (const reference of found.references) (reference.pinnedBy ??= new Set()).add(found.name);
    }
  }

  /** The references a column (through casts) belongs to, at this level or above, and its name. */
  private column(value: unknown, level: Level): { references: Reference[]; name: string } | undefined {
    const [kind, body] = unwrap(value) ?? ["", {}];
    if (kind === "TypeCast") return this.column(body.arg, level);
    if (kind !== "ColumnRef") return undefined;
    const fields = nodes(body.fields).map(str);
    const name = fields.at(-1) ?? "";
    const qualifier = fields.length > 1 ? fields.at(-2) : undefined;
    for (let current: Level | undefined = level; current; current = current.parent) {
      const found = current.references.filter((reference) =>
        qualifier ? reference.as === qualifier : reference.tenant || reference.key === name,
      );
      if (found.length > 0) return { references: found, name };
    }
    return undefined;
  }

  /** The references whose merchant-id column this expression is, at this level or above. */
  private merchantColumn(value: unknown, level: Level): Reference[] {
    const found = this.column(value, level);
    return found?.references.filter((reference) => reference.key === found.name) ?? [];
  }

  private isCrossTenant(reference: Reference): boolean {
    return (
      this.rules.crossTenant?.(this.sql, reference.table ?? "?", reference.pinnedBy ?? new Set()) ?? false
    );
  }

  /** Names no column of this level, or only scoped merchant ids of enclosing levels. */
  private isBound(value: unknown, level: Level): boolean {
    let bound = true;
    walk(value, (kind, body) => {
      if (kind === "SubLink") return false; // checked on its own
      if (kind !== "ColumnRef") return true;
      const outer = level.parent ? this.merchantColumn({ ColumnRef: body }, level.parent) : [];
      const fields = nodes(body.fields).map(str);
      const ownLevel =
        fields.length === 1 || level.references.some((reference) => reference.as === fields[0]);
      if (ownLevel || outer.length === 0 || outer.some((reference) => !reference.scoped)) bound = false;
      return false;
    });
    return bound;
  }

  /** Visits every subquery (SubLink) under these expressions as a statement of its own. */
  private subqueries(values: unknown[], level: Level, ctes: Ctes): void {
    walk(values, (kind, body) => {
      if (kind !== "SubLink") return true;
      this.statement(body.subselect, level, ctes);
      this.subqueries([body.testexpr], level, ctes);
      return false;
    });
  }

  private report(reference: Reference): void {
    const table = reference.table ?? "?";
    const crossTenant = this.isCrossTenant(reference);
    // A listed cross-tenant reference scopes its joins and correlated subqueries like a filtered one.
    if (crossTenant) reference.scoped = true;
    this.unscoped.push({ table, as: reference.as, crossTenant });
  }
}

/** Scoping crosses a join on merchant ids in either direction, as often as it takes. */
function spread(pairs: Array<[Reference, Reference]>): void {
  for (let changed = true; changed;) {
    changed = false;
    for (const [a, b] of pairs)
      if (a.scoped !== b.scoped) {
        a.scoped = b.scoped = true;
        changed = true;
      }
  }
}
