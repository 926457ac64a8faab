/**
 * The statements `spark.sql(...)` runs besides queries (sql/statement.ts), with Spark's results
 * and errors (PySpark 4.3.0): the temp-view statements CREATE [OR REPLACE] TEMP VIEW and DROP VIEW
 * (an empty DataFrame of no columns, as Spark answers a command), SET / RESET on `session.conf`
 * (so a setting takes effect as `conf.set` does), and SHOW TABLES / VIEWS / COLUMNS and DESCRIBE,
 * each a DataFrame of Spark's columns.
 */
import { readdirSync } from "node:fs";
import { AnalysisException } from "../common/errors.js";
import { tableInfoSync } from "../connectors/table/index.js";
import type { LogicalPlan } from "../plan/logical.js";
import { checkModifiable, type Statement } from "../sql/index.js";
import { type DataType, StructOf, type StructType, simpleString } from "../types/datatypes.js";
import { DataFrame } from "./dataframe.js";
import type { Session } from "./session.js";

type Command = Exclude<Statement, { kind: "query" }>;
type Row = Record<string, unknown>;

export function runViewCommand(session: Session, st: Command): DataFrame {
  switch (st.kind) {
    case "dropView":
      if (!session.catalog.dropTempView(st.name) && !st.ifExists)
        throw new AnalysisException(
          "TABLE_OR_VIEW_NOT_FOUND",
          `[TABLE_OR_VIEW_NOT_FOUND] The table or view \`spark_catalog\`.\`default\`.\`${st.name}\` cannot be found. Verify the spelling and correctness of the schema and catalog.`,
        );
      return noRows(session);
    case "createTempView":
      session.catalog.registerTempView(st.name, viewPlan(session, st.name, st.plan, st.columns), st.replace);
      return noRows(session);
    case "set":
      return set(session, st.key, st.value);
    case "reset":
      if (st.key === null) session.conf.resetAll();
      else {
        checkModifiable(st.key, false);
        session.conf.reset(st.key);
      }
      return noRows(session);
    case "showTables":
      return showTables(session, st.views, st.namespace, st.pattern);
    case "showColumns":
      return rows(
        session,
        "col_name STRING NOT NULL",
        session.table(st.table.join(".")).schema.fields.map((f) => ({ col_name: f.name })),
      );
    case "describe":
      return describe(session, st.table, st.extended, st.column);
    case "describeQuery":
      return rows(session, DESCRIBE_COLUMNS, columnRows(new DataFrame(session, st.plan).schema));
  }
}

const noRows = (session: Session) => session.createDataFrame([], StructOf([]));
const rows = (session: Session, ddl: string, data: Row[]) => session.createDataFrame(data, ddl);

// ---------------------------------------------------------------- SET

const WAREHOUSE = "spark.sql.warehouse.dir";
const KEY_VALUE = "key STRING NOT NULL, value STRING NOT NULL";

function set(session: Session, key: string | null, value: string | null): DataFrame {
  const conf = session.conf;
  if (key === null) {
    // Spark lists every setting made (the builder's and SET's), and always its warehouse
    const all = Object.entries(conf.all()).filter(([k]) => conf.isExplicit(k));
    if (!conf.isExplicit(WAREHOUSE)) all.push([WAREHOUSE, `file:${session.warehouse}`]);
    all.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return rows(
      session,
      KEY_VALUE,
      all.map(([k, v]) => ({ key: k, value: v })),
    );
  }
  if (value === null) return rows(session, KEY_VALUE, [{ key, value: currentValue(session, key) }]);
  conf.set(key, value); // refused as Spark refuses it (sql/conf-rules.ts)
  return rows(session, KEY_VALUE, [{ key, value }]);
}

/** `SET key`: the setting, else its default, else Spark's `<undefined>`. */
function currentValue(session: Session, key: string): string {
  const v = session.conf.getOption(key);
  if (v !== undefined) return v;
  if (key === "spark.sql.session.timeZone") return session.conf.get(key); // the process's zone
  if (key === WAREHOUSE) return `file:${session.warehouse}`;
  return "<undefined>";
}

// ---------------------------------------------------------------- SHOW / DESCRIBE

/** SHOW TABLES: the warehouse's tables of `default` (sorted), then the temp views (sorted). */
function showTables(session: Session, views: boolean, namespace: readonly string[] | null, pattern: string | null): DataFrame {
  const ns = namespace?.map((p) => p.toLowerCase()) ?? ["default"];
  if (ns[0] === "spark_catalog" && ns.length === 2) ns.shift();
  if (ns.length > 1)
    throw new AnalysisException(
      "NESTED_DATABASE_UNSUPPORTED_BY_V1_SESSION_CATALOG",
      `[NESTED_DATABASE_UNSUPPORTED_BY_V1_SESSION_CATALOG] Nested databases are not supported by v1 session catalog: ${quoted(namespace!)}. SQLSTATE: 42K05`,
    );
  if (ns[0] !== "default" && ns[0] !== "global_temp")
    throw new AnalysisException(
      "SCHEMA_NOT_FOUND",
      `[SCHEMA_NOT_FOUND] The schema \`spark_catalog\`.\`${ns[0]}\` cannot be found. Verify the spelling and correctness of the schema and catalog.\nIf you did not qualify the name with a catalog, verify the current_schema() output, or qualify the name with the correct catalog.\nTo tolerate the error on drop use DROP SCHEMA IF EXISTS. SQLSTATE: 42704`,
    );
  const matches = likePattern(pattern);
  const name = views ? "viewName" : "tableName";
  const out: Row[] = [];
  if (!views && ns[0] === "default")
    for (const t of savedTables(session.warehouse)) if (matches(t)) out.push({ namespace: "default", [name]: t, isTemporary: false });
  for (const v of session.catalog.listTempViews().sort()) if (matches(v)) out.push({ namespace: "", [name]: v, isTemporary: true });
  return rows(session, `namespace STRING NOT NULL, ${name} STRING NOT NULL, isTemporary BOOLEAN NOT NULL`, out);
}

/** SHOW ... LIKE: Spark's pattern is a regular expression, `*` meaning `.*`, matched whole, any case. */
function likePattern(pattern: string | null): (name: string) => boolean {
  if (pattern === null) return () => true;
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${pattern.replaceAll("*", ".*")})$`, "i");
  } catch {
    return () => false; // Spark skips a pattern that is not a regular expression
  }
  return (name) => re.test(name);
}

function savedTables(warehouse: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(warehouse);
  } catch {
    return []; // no warehouse yet
  }
  return entries.filter((n) => !n.endsWith(".db") && isTable(warehouse, n)).sort();
}

function isTable(warehouse: string, name: string): boolean {
  try {
    return tableInfoSync(warehouse, name) !== null;
  } catch {
    return false; // a directory whose name is no table name
  }
}

const DESCRIBE_COLUMNS = "col_name STRING NOT NULL, data_type STRING NOT NULL, comment STRING";

function describe(session: Session, table: readonly string[], extended: boolean, column: readonly string[] | null): DataFrame {
  const name = table.join(".");
  const isView = table.length === 1 && session.catalog.listTempViews().includes(name.toLowerCase());
  const schema = session.table(name).schema; // TABLE_OR_VIEW_NOT_FOUND as a query's
  if (column !== null) return describeColumn(session, schema, column);
  // a temp view has no more to say under EXTENDED; a table has its storage details, which arus does not give
  if (extended && !isView)
    throw new AnalysisException(
      "UNSUPPORTED_FEATURE",
      `DESCRIBE EXTENDED of table ${name} is not supported by arus: DESCRIBE ${name} gives its columns.`,
    );
  const out = columnRows(schema);
  const partitions = isView ? [] : (tableInfo(session, name)?.partitionColumns ?? []);
  if (partitions.length > 0) {
    out.push(
      { col_name: "# Partition Information", data_type: "", comment: "" },
      { col_name: "# col_name", data_type: "data_type", comment: "comment" },
    );
    for (const p of partitions) out.push(...columnRows(StructOf(schema.fields.filter((f) => f.name.toLowerCase() === p.toLowerCase()))));
  }
  return rows(session, DESCRIBE_COLUMNS, out);
}

function tableInfo(session: Session, name: string) {
  try {
    return tableInfoSync(session.warehouse, name);
  } catch {
    return null;
  }
}

/** DESCRIBE t col: one column as (info_name, info_value) rows, the name as written. */
function describeColumn(session: Session, schema: StructType, column: readonly string[]): DataFrame {
  const name = column.join(".");
  if (column.length > 1)
    throw new AnalysisException("_LEGACY_ERROR_TEMP_1060", `DESC TABLE COLUMN does not support nested column: ${name}.`);
  const f = schema.fields.find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (!f)
    throw new AnalysisException(
      "COLUMN_NOT_FOUND",
      `[COLUMN_NOT_FOUND] The column \`${name}\` cannot be found. Verify the spelling and correctness of the column name according to the SQL config "spark.sql.caseSensitive". SQLSTATE: 42703`,
    );
  const info: [string, string][] = [
    ["col_name", name],
    ["data_type", typeName(f.type)],
    ["comment", comment(f.metadata) ?? "NULL"],
  ];
  return rows(
    session,
    "info_name STRING NOT NULL, info_value STRING NOT NULL",
    info.map(([k, v]) => ({ info_name: k, info_value: v })),
  );
}

function columnRows(schema: StructType): Row[] {
  return schema.fields.map((f) => ({ col_name: f.name, data_type: typeName(f.type), comment: comment(f.metadata) }));
}

/** Spark's catalogString, which is its simpleString for every type arus has. */
const typeName = (t: DataType) => simpleString(t);
const comment = (m: Readonly<Record<string, unknown>> | undefined) => (typeof m?.comment === "string" ? m.comment : null);
const quoted = (parts: readonly string[]) => parts.map((p) => `\`${p}\``).join(".");

// ---------------------------------------------------------------- CREATE TEMP VIEW

/** The view's plan, its columns renamed by the statement's column list (as many as the query has, or Spark's error). */
function viewPlan(session: Session, name: string, plan: LogicalPlan, columns: readonly string[] | null): LogicalPlan {
  // analyzed, as a DataFrame's plan (createOrReplaceTempView stores one)
  const df = new DataFrame(session, plan);
  if (columns === null) return df.plan;
  const data = df.columns;
  if (data.length !== columns.length) {
    const [cls, reason] =
      data.length > columns.length
        ? ["TOO_MANY_DATA_COLUMNS", "too many data columns"]
        : ["NOT_ENOUGH_DATA_COLUMNS", "not enough data columns"];
    const list = (ns: readonly string[]) => ns.map((n) => `\`${n}\``).join(", ");
    throw new AnalysisException(
      `CREATE_VIEW_COLUMN_ARITY_MISMATCH.${cls}`,
      `[CREATE_VIEW_COLUMN_ARITY_MISMATCH.${cls}] Cannot create view \`${name}\`, the reason is ${reason}:\nView columns: ${list(columns)}.\nData columns: ${list(data)}. SQLSTATE: 21S01`,
    );
  }
  return df.toDF(...columns).plan;
}
