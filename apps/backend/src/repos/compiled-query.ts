import { Column, Param, Placeholder, is } from "drizzle-orm";

/**
 * The prepared hot-path queries, with their parameters filled and their rows mapped by functions
 * made once per query instead of drizzle's generic ones.
 *
 * On every run drizzle fills a prepared query's parameters with `fillPlaceholders`, which asks of
 * each parameter whether it is a placeholder, or a parameter wrapping one, with `is()` (an
 * `instanceof` and then a walk of the prototype chain); and it maps every row it reads with
 * `mapResultRow`: the same `is()` per column, a path iterator and a store under a computed key into
 * a fresh object, so V8 sees one megamorphic store site for every table. Profiled with `perf` in
 * the backend during `npm run bench`'s paced pass, the mapping alone was about 6% of the board's
 * thread (docs/BENCHMARKS.md); a round trip runs 18 statements and reads about ten rows.
 *
 * Both are fixed when the query is prepared. The parameter plan says, per parameter, "value of
 * placeholder X", "placeholder X through the column's encoder" or "this constant". For a query
 * over one table's columns (every `select().from(t)` and `returning()` of the repos) the row
 * mapper is an object literal: the row's i-th value goes to the i-th column's property, through
 * the column's decoder (JSON, booleans) unless that is the identity, so each store is its own
 * monomorphic site and every row of a table gets the same hidden class.
 *
 * Queries returning rows of any other shape (joins, nested or SQL fields, relational queries) are
 * left to drizzle entirely. Relies on drizzle's prepared query keeping `stmt`, `query`, `fields`,
 * `logger` and `customResultMapper` (drizzle-orm 0.45, pinned by the lockfile);
 * compiled-query.test.ts compares both ways on every table and fails should those move.
 */

interface SelectedField {
  path: string[];
  field: unknown;
}

interface Statement {
  raw(toggle?: boolean): Statement;
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

type Values = Record<string, unknown>;

/** What this module reads of drizzle's BetterSQLitePreparedQuery. */
interface DrizzlePrepared {
  stmt?: Statement;
  query?: { sql: string; params: unknown[] };
  fields?: SelectedField[];
  logger?: { logQuery(sql: string, params: unknown[]): void };
  customResultMapper?: unknown;
  run(values?: Values): unknown;
  get(values?: Values): unknown;
  all(values?: Values): unknown[];
}

const COMPILED = Symbol("kandev.compiledQuery");

/** A plain JavaScript identifier, safe to write as a property name unquoted. */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

type Step = { name: string; encode: ((value: unknown) => unknown) | null } | { constant: unknown };

/**
 * The parameter filler of a compiled query's `params`: the same values drizzle's `fillPlaceholders`
 * gives, and the same error for a placeholder without a value.
 */
export function compileParams(params: readonly unknown[]): (values: Values) => unknown[] {
  const steps: Step[] = params.map((p) => {
    if (is(p, Placeholder)) return { name: p.name, encode: null };
    if (is(p, Param) && is(p.value, Placeholder)) {
      const encoder = p.encoder;
      return { name: p.value.name, encode: (v: unknown) => encoder.mapToDriverValue(v) };
    }
    return { constant: p };
  });
  return (values) => {
    const out = new Array<unknown>(steps.length);
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      if ("constant" in step) {
        out[i] = step.constant;
        continue;
      }
      if (!(step.name in values)) throw new Error(`No value for placeholder "${step.name}" was provided`);
      const value = values[step.name];
      out[i] = step.encode === null ? value : step.encode(value);
    }
    return out;
  };
}

/**
 * The row mapper of `fields` when every field is one column of the table at the top level, else
 * undefined (drizzle's mapping stays).
 */
export function compileRowMapper(fields: readonly SelectedField[]): ((row: unknown[]) => Record<string, unknown>) | undefined {
  if (fields.length === 0) return undefined;
  const columns: Column[] = [];
  const entries: string[] = [];
  for (const [i, { path, field }] of fields.entries()) {
    if (path.length !== 1 || !IDENTIFIER.test(path[0]!) || !is(field, Column)) return undefined;
    columns.push(field);
    const identity = field.mapFromDriverValue === Column.prototype.mapFromDriverValue;
    entries.push(`${path[0]}: ${identity ? `row[${i}]` : `row[${i}] === null ? null : columns[${i}].mapFromDriverValue(row[${i}])`}`);
  }
  // Property names are checked identifiers of our own schema; nothing else enters the source.
  const make = new Function("columns", `return function mapRow(row) { return { ${entries.join(", ")} }; };`) as (
    columns: Column[],
  ) => (row: unknown[]) => Record<string, unknown>;
  return make(columns);
}

/**
 * Gives a drizzle prepared query (`.prepare()`'s result) the compiled parameter filler and, when
 * it returns rows, the compiled row mapper, for run(), get() and all(); returns the same query.
 * A query whose rows the mapper cannot take (joins, nested or SQL fields, relational queries), or
 * anything that is not a drizzle prepared query, is returned untouched: drizzle runs it as before.
 */
export function compileQuery<T>(query: T): T {
  const q = query as unknown as DrizzlePrepared;
  if (q === null || typeof q !== "object" || COMPILED in q) return query;
  const { stmt, query: compiled, fields, logger } = q;
  if (stmt === undefined || compiled === undefined || logger === undefined) return query;
  const returnsRaw = fields === undefined && q.customResultMapper === undefined;
  const mapRow = fields === undefined || q.customResultMapper !== undefined ? undefined : compileRowMapper(fields);
  if (!returnsRaw && mapRow === undefined) return query;
  const fill = compileParams(compiled.params);
  const params = (values: Values | undefined) => {
    const filled = fill(values ?? {});
    logger.logQuery(compiled.sql, filled);
    return filled;
  };
  q.run = (values) => stmt.run(...params(values));
  if (mapRow === undefined) {
    // No selected fields (a write without RETURNING): drizzle hands the driver's own rows back.
    q.get = (values) => stmt.get(...params(values));
    q.all = (values) => stmt.all(...params(values));
  } else {
    q.get = (values) => {
      const row = stmt.raw(true).get(...params(values)) as unknown[] | undefined;
      return row === undefined ? undefined : mapRow(row);
    };
    q.all = (values) => (stmt.raw(true).all(...params(values)) as unknown[][]).map(mapRow);
  }
  Object.defineProperty(q, COMPILED, { value: mapRow === undefined ? "params" : "rows" });
  return query;
}

/** How `compileQuery` changed this query: "rows" (parameters and rows), "params" (a query without rows: parameters), or null (untouched). */
export function compiledAs(query: unknown): "rows" | "params" | null {
  return query !== null && typeof query === "object" && COMPILED in query ? (query as { [COMPILED]: "rows" | "params" })[COMPILED] : null;
}
