/**
 * DataFrame: an immutable wrapper around an analyzed logical plan. Transformations return a
 * new DataFrame around a new plan node (analysis runs eagerly, so mistakes surface where they
 * are made, as in Spark); actions are async and run the plan.
 */

import { Table as ArrowTable } from "apache-arrow";
import { batchToArrow } from "../columnar/arrow-export.js";
import { toArrowSchema } from "../columnar/arrow-types.js";
import type { Batch } from "../columnar/batch.js";
import { AnalysisException, IllegalArgumentException } from "../common/errors.js";
import { delayMs } from "../common/interval.js";
import { formatCell, showString, showVerticalString } from "../common/show.js";
import { type Attribute, alias, columnFromName, dataFrameColumn, type Expr, type SortOrder, sortOrder } from "../plan/expressions.js";
import { combineGroupingSets, cubeSets, type ExprSets, rollupSets } from "../plan/grouping-sets.js";
import { isStreamingPlan, type JoinType, type LogicalPlan, Plans } from "../plan/logical.js";
import { planOutput as outputOf } from "../runtime/query-execution.js";
import { parseExpression } from "../sql/index.js";
import { field, StructOf, type StructType, simpleString, treeTypeName } from "../types/datatypes.js";
import { Column, type ColumnOrName, col, toExpr } from "./column.js";
import { crosstab } from "./crosstab.js";
import { describe } from "./describe.js";
import { struct, to_json } from "./functions.js";
import { GroupedData } from "./grouped.js";
import { DataFrameNaFunctions, type FillValue } from "./na-functions.js";
import type { Observation } from "./observation.js";
import { randomSplit, sample } from "./sampling.js";
import type { SessionInternals } from "./session-internals.js";
import { type ShowOptions, showArgs } from "./show-args.js";
import { approxQuantile, correlation, covariance, DataFrameStatFunctions, freqItems } from "./stat-functions.js";
import { DataStreamWriter } from "./streaming/writer.js";
import { summary } from "./summary.js";
import { unpivot } from "./unpivot.js";
import { batchToArrays, batchToRows, type Row } from "./values.js";
import { DataFrameWriter } from "./writer.js";

type ColumnArgs = (ColumnOrName | ColumnOrName[])[];
const flatCols = (cs: ColumnArgs): ColumnOrName[] => cs.flat();

const JOIN_TYPES: Record<string, JoinType> = {
  inner: "inner",
  cross: "cross",
  outer: "full_outer",
  full: "full_outer",
  fullouter: "full_outer",
  full_outer: "full_outer",
  left: "left_outer",
  leftouter: "left_outer",
  left_outer: "left_outer",
  right: "right_outer",
  rightouter: "right_outer",
  right_outer: "right_outer",
  semi: "left_semi",
  leftsemi: "left_semi",
  left_semi: "left_semi",
  anti: "left_anti",
  leftanti: "left_anti",
  left_anti: "left_anti",
};

export class DataFrame {
  /** @internal the analyzed plan */
  readonly plan: LogicalPlan;

  /** @internal */
  constructor(
    readonly session: SessionInternals,
    plan: LogicalPlan,
  ) {
    this.plan = session.analyze(plan);
  }

  private with(plan: LogicalPlan): DataFrame {
    return new DataFrame(this.session, plan);
  }

  // ---------------------------------------------------------------- schema

  /** @internal */
  get output(): readonly Attribute[] {
    return outputOf(this.plan);
  }
  get schema(): StructType {
    return StructOf(
      this.output.map((a) => field(a.name, a.type, a.nullable, Object.keys(a.metadata).length ? { ...a.metadata } : undefined)),
    );
  }
  get columns(): string[] {
    return this.output.map((a) => a.name);
  }
  get dtypes(): [string, string][] {
    return this.output.map((a) => [a.name, simpleString(a.type)]);
  }
  get isStreaming(): boolean {
    return isStreamingPlan(this.plan);
  }
  /** The schema as a tree, as Spark prints it. */
  schemaString(): string {
    const lines = ["root"];
    const walk = (fields: StructType["fields"], depth: number) => {
      for (const f of fields) {
        const t = f.type;
        lines.push(`${" |   ".repeat(depth)} |-- ${f.name}: ${treeTypeName(t)} (nullable = ${f.nullable})`);
        if (t.kind === "struct") walk(t.fields, depth + 1);
        if (t.kind === "array") {
          lines.push(`${" |   ".repeat(depth + 1)} |-- element: ${treeTypeName(t.elementType)} (containsNull = ${t.containsNull})`);
          if (t.elementType.kind === "struct") walk(t.elementType.fields, depth + 2);
        }
      }
    };
    walk(this.schema.fields, 0);
    return `${lines.join("\n")}\n`;
  }
  printSchema(): void {
    process.stdout.write(`${this.schemaString()}\n`);
  }
  /** The plans as text; `extended` adds the analyzed and optimized logical plans. */
  explainString(extended = false): string {
    return this.session.explain(this.plan, extended);
  }
  explain(extended = false): void {
    process.stdout.write(`${this.explainString(extended)}\n`);
  }

  // ---------------------------------------------------------------- transformations

  select(...cols: ColumnArgs): DataFrame {
    return this.with(Plans.project(flatCols(cols).map(toExpr), this.plan));
  }
  selectExpr(...exprs: (string | string[])[]): DataFrame {
    return this.with(
      Plans.project(
        exprs.flat().map((e) => parseExpression(e)),
        this.plan,
      ),
    );
  }
  withColumn(name: string, c: Column): DataFrame {
    return this.withColumns({ [name]: c });
  }
  withColumns(cols: Record<string, Column>): DataFrame {
    const out = this.output;
    const names = Object.keys(cols);
    const replaced = new Set<string>();
    const list: Expr[] = out.map((a) => {
      const hit = names.find((n) => n.toLowerCase() === a.name.toLowerCase());
      if (!hit) return a;
      replaced.add(hit);
      return alias(cols[hit]!.expr, hit);
    });
    for (const n of names) if (!replaced.has(n)) list.push(alias(cols[n]!.expr, n));
    return this.with(Plans.project(list, this.plan));
  }
  withColumnRenamed(existing: string, newName: string): DataFrame {
    const out = this.output;
    if (!out.some((a) => a.name.toLowerCase() === existing.toLowerCase())) return this;
    return this.with(
      Plans.project(
        out.map((a) => (a.name.toLowerCase() === existing.toLowerCase() ? alias(a, newName) : a)),
        this.plan,
      ),
    );
  }
  withColumnsRenamed(mapping: Record<string, string>): DataFrame {
    let df: DataFrame = this;
    for (const [k, v] of Object.entries(mapping)) df = df.withColumnRenamed(k, v);
    return df;
  }
  drop(...cols: ColumnOrName[]): DataFrame {
    const names = new Set(cols.filter((c): c is string => typeof c === "string").map((c) => c.toLowerCase()));
    const ids = new Set(
      cols.filter((c): c is Column => c instanceof Column).map((c) => (this.session.analyzeExpr(c.expr, this.output) as Attribute).exprId),
    );
    const keep = this.output.filter((a) => !names.has(a.name.toLowerCase()) && !ids.has(a.exprId));
    return keep.length === this.output.length ? this : this.with(Plans.project(keep, this.plan));
  }
  filter(condition: Column | string): DataFrame {
    const e = typeof condition === "string" ? parseExpression(condition) : condition.expr;
    return this.with(Plans.filter(e, this.plan));
  }
  where(condition: Column | string): DataFrame {
    return this.filter(condition);
  }
  groupBy(...cols: ColumnArgs): GroupedData {
    return new GroupedData(this, flatCols(cols).map(toExpr));
  }
  groupby(...cols: ColumnArgs): GroupedData {
    return this.groupBy(...cols);
  }
  /** Subtotals: GROUP BY ROLLUP(cols) — (a, b), (a), () — with NULL in rolled-up columns (`F.grouping` tells them apart). */
  rollup(...cols: ColumnArgs): GroupedData {
    return this.groupedBySets(rollupSets(flatCols(cols).map((c) => [toExpr(c)])));
  }
  /** Every combination: GROUP BY CUBE(cols). */
  cube(...cols: ColumnArgs): GroupedData {
    return this.groupedBySets(cubeSets(flatCols(cols).map((c) => [toExpr(c)])));
  }
  /** GROUP BY GROUPING SETS: `groupingSets([["a", "b"], ["a"], []], "a", "b")` (PySpark 4's groupingSets). */
  groupingSets(sets: ColumnOrName[][], ...cols: ColumnArgs): GroupedData {
    const shown = flatCols(cols).map(toExpr);
    const exprs = [...shown];
    const keys = exprs.map((e) => JSON.stringify(e));
    const positions = sets.map((set) =>
      set.map((c) => {
        const e = toExpr(c);
        let i = keys.indexOf(JSON.stringify(e));
        if (i < 0) {
          exprs.push(e);
          keys.push(JSON.stringify(e));
          i = exprs.length - 1;
        }
        return i;
      }),
    );
    return new GroupedData(this, exprs, positions, shown);
  }
  private groupedBySets(sets: ExprSets): GroupedData {
    const { exprs, sets: positions } = combineGroupingSets([sets]);
    return new GroupedData(this, exprs, positions);
  }
  /** Global aggregate: `df.agg(F.sum("x"))`. */
  agg(...exprs: (Column | Column[])[]): DataFrame {
    return this.groupBy().agg(...exprs);
  }
  /**
   * Join with `on` as a column name, a list of names (USING), a condition Column, or a list of
   * condition Columns (ANDed, as PySpark's `join(other, [a.k == b.k, a.v > 6])`).
   * `how`: inner, left, left_outer, right, right_outer, full, full_outer, outer, left_semi,
   * left_anti, cross.
   */
  join(other: DataFrame, on?: string | string[] | Column | Column[], how = "inner"): DataFrame {
    const jt = JOIN_TYPES[how.toLowerCase().replace(/\s+/g, "")];
    if (!jt) {
      throw new IllegalArgumentException(
        `[UNSUPPORTED_JOIN_TYPE] Unsupported join type '${how}'. Supported join types include: 'inner', 'outer', 'full', 'fullouter', 'full_outer', 'leftouter', 'left', 'left_outer', 'rightouter', 'right', 'right_outer', 'leftsemi', 'left_semi', 'semi', 'leftanti', 'left_anti', 'anti', 'cross'.`,
      );
    }
    if (on === undefined) return this.with(Plans.join(this.plan, other.plan, jt === "inner" ? "cross" : jt, null));
    if (Array.isArray(on) && on.length > 0 && on.every((c) => c instanceof Column)) {
      return this.with(Plans.join(this.plan, other.plan, jt, (on as Column[]).reduce((x, y) => x.and(y)).expr));
    }
    if (typeof on === "string" || Array.isArray(on)) {
      return this.with(Plans.join(this.plan, other.plan, jt, null, typeof on === "string" ? [on] : (on as string[])));
    }
    return this.with(Plans.join(this.plan, other.plan, jt, on.expr));
  }
  crossJoin(other: DataFrame): DataFrame {
    return this.join(other, undefined, "cross");
  }
  orderBy(...cols: ColumnArgs): DataFrame {
    const orders: SortOrder[] = flatCols(cols).map((c) => {
      const e = toExpr(c);
      return e.kind === "sortOrder" ? e : sortOrder(e, true);
    });
    return this.with(Plans.sort(orders, this.plan));
  }
  sort(...cols: ColumnArgs): DataFrame {
    return this.orderBy(...cols);
  }
  limit(n: number): DataFrame {
    if (!Number.isInteger(n) || n < 0) throw new IllegalArgumentException(`The limit expression must be a non-negative integer, got ${n}.`);
    return this.with(Plans.limit(n, this.plan));
  }
  /** The rows after the first `n` (SQL OFFSET); batch only. */
  offset(n: number): DataFrame {
    if (!Number.isInteger(n) || n < 0)
      throw new IllegalArgumentException(`The offset expression must be a non-negative integer, got ${n}.`);
    return this.with(Plans.limit(Number.POSITIVE_INFINITY, this.plan, n));
  }
  union(other: DataFrame): DataFrame {
    return this.with(Plans.union([this.plan, other.plan]));
  }
  unionAll(other: DataFrame): DataFrame {
    return this.union(other);
  }
  unionByName(other: DataFrame, allowMissingColumns = false): DataFrame {
    return this.with(Plans.union([this.plan, other.plan], true, allowMissingColumns));
  }
  /**
   * PySpark's colRegex: "`regex`" (or "t.`regex`") selects every column whose name the Java
   * regex matches whole (`df.select(df.colRegex("`(k|v)`"))`); any other text is the column itself.
   */
  colRegex(colName: string): Column {
    const m = /^(?:(.+)\.)?`([\s\S]+)`$/.exec(colName);
    if (!m) return col(colName);
    return new Column({ kind: "star", qualifier: m[1] ?? null, regex: m[2]! });
  }
  /** Spark's Dataset.distinct() is dropDuplicates() (on a stream: the Deduplicate operator, not an aggregation). */
  distinct(): DataFrame {
    return this.with(Plans.deduplicate(null, this.plan));
  }
  dropDuplicates(subset?: string[]): DataFrame {
    return this.with(Plans.deduplicate(subset ?? null, this.plan));
  }
  drop_duplicates(subset?: string[]): DataFrame {
    return this.dropDuplicates(subset);
  }
  /** Streaming only: duplicates within the watermark delay of the first occurrence are dropped. */
  dropDuplicatesWithinWatermark(subset?: string[]): DataFrame {
    if (!this.isStreaming) {
      throw new AnalysisException(
        "_LEGACY_ERROR_TEMP_3102",
        "dropDuplicatesWithinWatermark is not supported with batch DataFrames/DataSets;",
      );
    }
    return this.with(Plans.deduplicate(subset ?? null, this.plan, true));
  }
  alias(name: string): DataFrame {
    return this.with(Plans.subqueryAlias(name, this.plan));
  }
  /** Declare `eventTime` the event-time column, tolerating `delay` of lateness ("10 seconds"). */
  withWatermark(eventTime: string, delay: string): DataFrame {
    const ms = delayMs(delay);
    return this.with(Plans.watermark(eventTime, ms, this.plan));
  }
  /**
   * Named metrics (aggregates over the rows passing this point, or literals) computed while the
   * query runs (Spark's observe): with a name, a streaming query reports them per micro-batch in
   * progress `observedMetrics`; with an Observation, a batch query's first action completes it.
   */
  observe(observation: string | Observation, ...metrics: Column[]): DataFrame {
    const name = typeof observation === "string" ? observation : observation.name;
    const sink = typeof observation === "string" ? null : observation.sinkFor(this.isStreaming);
    return this.with(
      Plans.collectMetrics(
        name,
        metrics.map((m) => m.expr),
        sink,
        this.plan,
      ),
    );
  }
  /** A DataFrame is immutable; cache() returns it unchanged (results are recomputed). */
  cache(): DataFrame {
    return this;
  }
  persist(): DataFrame {
    return this;
  }
  unpersist(): DataFrame {
    return this;
  }
  /**
   * Partitioning is not visible in an embedded engine (one process, rows in order): these return
   * the DataFrame unchanged, so code written for Spark runs as it is.
   */
  repartition(..._args: unknown[]): DataFrame {
    return this;
  }
  coalesce(_numPartitions: number): DataFrame {
    return this;
  }
  hint(_name: string, ..._params: unknown[]): DataFrame {
    return this;
  }
  /** One partition: the rows sorted (Spark sorts each partition). */
  sortWithinPartitions(...cols: ColumnArgs): DataFrame {
    return this.orderBy(...cols);
  }
  /** `fn(this, ...args)`: chains custom transformations (`df.transform(clean).transform(enrich)`). */
  transform<A extends unknown[]>(fn: (df: DataFrame, ...args: A) => DataFrame, ...args: A): DataFrame {
    return fn(this, ...args);
  }
  /** One row per value column: the ids, the column's name, its value (Spark's unpivot; unpivot.ts). */
  unpivot(
    ids: ColumnOrName | ColumnOrName[],
    values: ColumnOrName | ColumnOrName[] | null,
    variableColumnName: string,
    valueColumnName: string,
  ): DataFrame {
    return unpivot(this, ids, values, variableColumnName, valueColumnName);
  }
  /** PySpark's other name of `unpivot`. */
  melt(...args: Parameters<DataFrame["unpivot"]>): DataFrame {
    return this.unpivot(...args);
  }
  /** `sample(fraction, seed?)` or `sample(withReplacement, fraction, seed?)`: a Bernoulli sample (sampling.ts). */
  sample(...args: (boolean | number | undefined)[]): DataFrame {
    return sample(this, args);
  }
  /** Parts by `weights`, every row in exactly one (sampling.ts). */
  randomSplit(weights: number[], seed?: number): DataFrame[] {
    return randomSplit(this, weights, seed);
  }
  /** Pearson's correlation of two numeric columns, NULLs read as 0 and NaN when undefined, as Spark (stat-functions.ts). */
  corr(col1: string, col2: string, method?: string | null): Promise<number> {
    return correlation(this, col1, col2, method);
  }
  /** The sample covariance of two numeric columns, NULLs read as 0 and 0 when undefined, as Spark. */
  cov(col1: string, col2: string): Promise<number> {
    return covariance(this, col1, col2);
  }
  /** Pair counts of two columns: a row per value of col1, a column per value of col2; async (crosstab.ts). */
  crosstab(col1: string, col2: string): Promise<DataFrame> {
    return crosstab(this, col1, col2);
  }
  /** Approximate quantiles of numeric columns, NULL and NaN ignored; relativeError 0 is exact (stat-functions.ts). */
  approxQuantile(col: string, probabilities: readonly number[], relativeError: number): Promise<number[]>;
  approxQuantile(cols: readonly string[], probabilities: readonly number[], relativeError: number): Promise<number[][]>;
  approxQuantile(
    cols: string | readonly string[],
    probabilities: readonly number[],
    relativeError: number,
  ): Promise<number[] | number[][]> {
    this.assertBatch();
    return approxQuantile(this, cols, probabilities, relativeError);
  }
  /** Items in more than `support` (default 1%) of the rows, per column, possibly with false positives (stat-functions.ts). */
  freqItems(cols: readonly string[], support?: number | null): DataFrame {
    this.assertBatch();
    return freqItems(this, cols, support);
  }
  /** The statistics functions: `df.stat.corr(...)`, `crosstab`, `approxQuantile`, `freqItems`, `cov`. */
  get stat(): DataFrameStatFunctions {
    return new DataFrameStatFunctions(this);
  }
  /** PySpark's `df.sparkSession`. */
  get sparkSession(): SessionInternals {
    return this.session;
  }
  /** Spark's basic statistics (count, mean, stddev, min, max) as strings, per column (describe.ts). */
  describe(...cols: (string | string[])[]): DataFrame {
    this.assertBatch();
    return describe(this, cols.flat());
  }
  /**
   * Spark's summary statistics as strings, per numeric or STRING column: count, mean, stddev,
   * min, 25%, 50%, 75%, max by default, or those named (also count_distinct,
   * approx_count_distinct, any `NN%`) in the order given (summary.ts).
   */
  summary(...statistics: string[]): DataFrame {
    this.assertBatch();
    return summary(this, statistics);
  }
  /** The columns renamed, in order. */
  toDF(...names: string[]): DataFrame {
    const out = this.output;
    if (names.length !== out.length) {
      throw new IllegalArgumentException(
        `[ASSIGNMENT_ARITY_MISMATCH] The number of columns or variables assigned or aliased: ${out.length} does not match the number of source expressions: ${names.length}.`,
      );
    }
    return this.with(
      Plans.project(
        out.map((a, i) => alias(a, names[i]!)),
        this.plan,
      ),
    );
  }
  /** Missing-value functions: `df.na.fill(0)`, `df.na.drop()`, `df.na.replace("a", "b")`. */
  get na(): DataFrameNaFunctions {
    return new DataFrameNaFunctions(this);
  }
  fillna(value: FillValue | Readonly<Record<string, FillValue>>, subset?: string | string[]): DataFrame {
    return this.na.fill(value, subset);
  }
  dropna(how: "any" | "all" = "any", thresh?: number, subset?: string | string[]): DataFrame {
    return this.na.drop(how, thresh, subset);
  }
  replace(...args: Parameters<DataFrameNaFunctions["replace"]>): DataFrame {
    return this.na.replace(...args);
  }
  /** Distinct rows also in `other` (NULLs equal); batch only. */
  intersect(other: DataFrame): DataFrame {
    return this.with(Plans.setOperation("intersect", false, this.plan, other.plan));
  }
  /** Rows also in `other`, as often as they occur in both; batch only. */
  intersectAll(other: DataFrame): DataFrame {
    return this.with(Plans.setOperation("intersect", true, this.plan, other.plan));
  }
  /** Distinct rows not in `other` (SQL's EXCEPT DISTINCT); batch only. */
  subtract(other: DataFrame): DataFrame {
    return this.with(Plans.setOperation("except", false, this.plan, other.plan));
  }
  /** Rows not in `other`, as often as they occur more here than there (EXCEPT ALL); batch only. */
  exceptAll(other: DataFrame): DataFrame {
    return this.with(Plans.setOperation("except", true, this.plan, other.plan));
  }
  /** Bind a column of this DataFrame (`df.col("a")`). */
  col(name: string): Column {
    // `df.col("*")` is every column of this DataFrame, also where a join above hides some (Spark's ResolvedStar)
    if (name === "*") return new Column({ kind: "star", qualifier: null, attributes: this.output });
    const e = this.session.analyzeExpr(columnFromName(name), this.output);
    return new Column(e.kind === "attribute" ? dataFrameColumn(e) : e);
  }

  createOrReplaceTempView(name: string): void {
    this.session.catalog.registerTempView(name, this.plan, true);
  }
  createTempView(name: string): void {
    this.session.catalog.registerTempView(name, this.plan, false);
  }

  // ---------------------------------------------------------------- actions

  /** @internal run the plan and return its batches. */
  async executeBatches(): Promise<Batch[]> {
    this.assertBatch();
    return this.session.execute(this.plan);
  }
  private assertBatch(): void {
    if (this.isStreaming) {
      throw new AnalysisException("STREAMING_QUERY_REQUIRED", "Queries with streaming sources must be executed with writeStream.start();");
    }
  }
  async collect(): Promise<Row[]> {
    const out = this.output;
    const names = out.map((a) => a.name);
    const types = out.map((a) => a.type);
    return (await this.executeBatches()).flatMap((b) => batchToRows(names, types, b));
  }
  /** PySpark's toLocalIterator: the rows one by one (`for await (const row of df.toLocalIterator())`). */
  async *toLocalIterator(): AsyncGenerator<Row> {
    const out = this.output;
    const names = out.map((a) => a.name);
    const types = out.map((a) => a.type);
    for (const b of await this.executeBatches()) yield* batchToRows(names, types, b);
  }
  /** `fn` for every row, awaited in order (PySpark's foreach; arus has one partition). */
  async foreach(fn: (row: Row) => unknown): Promise<void> {
    for await (const row of this.toLocalIterator()) await fn(row);
  }
  /** `fn` once with an iterator of all rows (PySpark's foreachPartition over arus's one partition). */
  async foreachPartition(fn: (rows: Iterable<Row>) => unknown): Promise<void> {
    await fn(await this.collect());
  }
  /** One STRING column `value`: each row as JSON (as Spark Connect's toJSON). */
  toJSON(): DataFrame {
    return this.select(to_json(struct(...this.output.map((a) => new Column(a)))).alias("value"));
  }
  /** Rows as arrays in column order: for repeated names, or names a JS object would reorder (`"2020"`). */
  async toArray(): Promise<unknown[][]> {
    const types = this.output.map((a) => a.type);
    return (await this.executeBatches()).flatMap((b) => batchToArrays(types, b));
  }
  async count(): Promise<number> {
    this.assertBatch();
    // an aggregate, as Spark's count(): the scan below reads no column it does not need (a CSV
    // file's records are then counted without converting a value, malformed or not)
    const [row] = await this.selectExpr("count(1) AS count").collect();
    return Number(row!.count);
  }
  /** The last `n` rows (of a batch DataFrame). */
  async tail(n: number): Promise<Row[]> {
    const rows = await this.collect();
    return n <= 0 ? [] : rows.slice(-n);
  }
  async take(n: number): Promise<Row[]> {
    return this.limit(n).collect();
  }
  async head(n = 1): Promise<Row[]> {
    return this.take(n);
  }
  async first(): Promise<Row | null> {
    return (await this.take(1))[0] ?? null;
  }
  async isEmpty(): Promise<boolean> {
    return (await this.take(1)).length === 0;
  }
  /** Exactly what Spark's `show()` prints, as a string. */
  async showString(n?: number | boolean | ShowOptions, truncate?: boolean | number, vertical?: boolean): Promise<string> {
    this.assertBatch();
    const args = showArgs(n, truncate, vertical);
    const rows = await this.limit(args.n + 1).executeBatches();
    return renderShow(this.output, rows, args.n, args.truncate, this.session.timeZone, args.vertical);
  }
  /** PySpark's forms: `show()`, `show(n)`, `show(n, truncate)`, `show(n, truncate, vertical)`, `show(false)`, `show({ n, truncate, vertical })`. */
  async show(n?: number | boolean | ShowOptions, truncate?: boolean | number, vertical?: boolean): Promise<void> {
    process.stdout.write(`${await this.showString(n, truncate, vertical)}\n`);
  }

  /** The result as an Apache Arrow table (zero-copy for numeric columns). */
  async toArrow(): Promise<ArrowTable> {
    const schema = this.schema;
    const batches = (await this.executeBatches()).filter((b) => b.numRows > 0).map((b) => batchToArrow(schema, b));
    return batches.length ? new ArrowTable(batches) : new ArrowTable(toArrowSchema(schema));
  }

  get write(): DataFrameWriter {
    this.assertBatch();
    return new DataFrameWriter(this);
  }
  get writeStream(): DataStreamWriter {
    if (!this.isStreaming) {
      throw new AnalysisException(
        "WRITE_STREAM_NOT_ALLOWED",
        "'writeStream' can be called only on streaming Dataset/DataFrame. (Queries without streaming sources cannot be executed with writeStream.start().)",
      );
    }
    return new DataStreamWriter(this);
  }
}

/** Format batches (already limited to at most n+1 rows) the way show() prints them. */
export function renderShow(
  output: readonly Attribute[],
  batches: readonly Batch[],
  n: number,
  truncate: number,
  tz: string,
  vertical = false,
): string {
  const cells: string[][] = [];
  for (const b of batches) {
    for (let i = 0; i < b.numRows && cells.length <= n; i++) {
      cells.push(
        output.map((a, c) => {
          const v = b.columns[c]!;
          const isNull = v.validity !== null && v.validity[i] === 0;
          return formatCell(isNull ? null : cellValue(v, i), a.type, tz);
        }),
      );
    }
  }
  const hasMore = cells.length > n;
  return (vertical ? showVerticalString : showString)(
    output.map((a) => a.name),
    cells.slice(0, n),
    n,
    truncate,
    hasMore,
  );
}

import { getValue } from "../columnar/vector.js";

function cellValue(v: Batch["columns"][number], i: number): unknown {
  return getValue(v, i);
}

export { col };
