import { Placeholder, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";

/** Turns drizzle `sql` into text and parameters, as drizzle's own sessions do. */
export const dialect = new PgDialect();

type Slot = { placeholder: string } | { value: unknown };

/**
 * A statement on the API's hot path, written once with drizzle's `sql` like any other and compiled to its
 * text once: a call then only binds its values. Building and compiling the `sql` tree on every request
 * cost about 5% of an API list request's CPU (drizzle's helpers run megamorphic in a process that also
 * serves the dashboard).
 */
export class Statement<Values extends Record<string, unknown>, Row = Record<string, unknown>> {
  #compiled: { text: string; slots: Slot[] } | undefined;
  /** Types the rows the statement returns; never set. */
  declare readonly rowType: Row;

  constructor(
    /** The statement for some values; called with placeholders once, and for drivers without the direct path. */
    private readonly build: (values: Values) => SQL,
  ) {}

  /** The statement as drizzle `sql`, for an executor that runs it itself (PGlite, a transaction). */
  query(values: Values): SQL {
    return this.build(values);
  }

  get text(): string {
    return this.compiled().text;
  }

  /** The parameters for `text`, in order. */
  bind(values: Values): unknown[] {
    const { slots } = this.compiled();
    const parameters = new Array<unknown>(slots.length);
    for (let index = 0; index < slots.length; index++) {
      const slot = slots[index]!;
      parameters[index] = "placeholder" in slot ? values[slot.placeholder] : slot.value;
    }
    return parameters;
  }

  private compiled(): { text: string; slots: Slot[] } {
    if (!this.#compiled) {
      // Each value the statement reads becomes a placeholder named after it.
      const placeholders = new Proxy({}, { get: (_target, name) => sql.placeholder(String(name)) });
      const { sql: text, params } = dialect.sqlToQuery(this.build(placeholders as Values));
      const slots = params.map((param): Slot =>
        param instanceof Placeholder ? { placeholder: param.name as string } : { value: param },
      );
      this.#compiled = { text, slots };
    }
    return this.#compiled;
  }
}
