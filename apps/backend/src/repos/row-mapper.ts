import { Column, fillPlaceholders, is } from "drizzle-orm";

/**
 * Rows of the prepared hot-path queries, mapped by a function made once per query instead of
 * drizzle's generic `mapResultRow`.
 *
 * drizzle maps every row it reads column by column: an `is(field, Column)` prototype walk, a path
 * iterator and a store under a computed key into a fresh object, so V8 sees a megamorphic store
 * site shared by every table. Profiled with `perf` in the backend during `npm run bench`'s paced
 * pass, that was about 6% of the board's thread (docs/BENCHMARKS.md); a round trip reads about ten
 * rows. For a query over one table's columns (every `select().from(t)` and `returning()` of the
 * repos) the mapping is fixed when the query is prepared: the row's i-th value goes to the i-th
 * column's property, through the column's decoder (JSON, booleans) unless that is the identity.
 * The function written here is an object literal with those properties, so each store is its own
 * monomorphic site and every row of a table gets the same hidden class.
 *
 * Queries of any other shape (joins, nested or SQL fields, relational queries) keep drizzle's
 * mapping. Relies on drizzle's prepared query keeping `stmt`, `query`, `fields`, `logger` and
 * `customResultMapper` (drizzle-orm 0.45, pinned by the lockfile); row-mapper.test.ts compares
 * both mappings on every table and fails should those move.
 */

interface SelectedField {
  path: string[];
  field: unknown;
}

interface RawStatement {
  raw(toggle?: boolean): RawStatement;
  get(...params: unknown[]): unknown[] | undefined;
  all(...params: unknown[]): unknown[][];
}

/** What this module reads of drizzle's BetterSQLitePreparedQuery. */
interface DrizzlePrepared {
  stmt?: RawStatement;
  query?: { sql: string; params: unknown[] };
  fields?: SelectedField[];
  logger?: { logQuery(sql: string, params: unknown[]): void };
  customResultMapper?: unknown;
  get(values?: Record<string, unknown>): unknown;
  all(values?: Record<string, unknown>): unknown[];
}

const FAST = Symbol("kandev.fastRows");

/** A plain JavaScript identifier, safe to write as a property name unquoted. */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

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
 * Gives a drizzle prepared query (`.prepare()`'s result) the compiled row mapper for its get() and
 * all(), when its shape allows; returns the same query either way.
 */
export function withFastRows<T>(query: T): T {
  const q = query as unknown as DrizzlePrepared;
  if (q === null || typeof q !== "object" || FAST in q) return query;
  const { stmt, query: compiled, fields, logger } = q;
  if (stmt === undefined || compiled === undefined || logger === undefined || fields === undefined || q.customResultMapper !== undefined) return query;
  const mapRow = compileRowMapper(fields);
  if (mapRow === undefined) return query;
  const params = (values: Record<string, unknown> | undefined) => {
    const filled = fillPlaceholders(compiled.params, values ?? {});
    logger.logQuery(compiled.sql, filled);
    return filled;
  };
  q.get = (values) => {
    const row = stmt.raw(true).get(...params(values));
    return row === undefined ? undefined : mapRow(row);
  };
  q.all = (values) => stmt.raw(true).all(...params(values)).map(mapRow);
  Object.defineProperty(q, FAST, { value: true });
  return query;
}

/** Whether `withFastRows` gave this query its own mapper (tests). */
export function hasFastRows(query: unknown): boolean {
  return query !== null && typeof query === "object" && FAST in query;
}
