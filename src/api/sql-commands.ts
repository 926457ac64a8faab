/**
 * The temp-view statements `spark.sql(...)` runs besides queries (sql/statement.ts): CREATE [OR
 * REPLACE] TEMP VIEW name [(columns)] AS query and DROP VIEW [IF EXISTS] name, with Spark's
 * errors. Each answers an empty DataFrame of no columns, as Spark answers a command.
 */
import { AnalysisException } from "../common/errors.js";
import type { LogicalPlan } from "../plan/logical.js";
import type { Statement } from "../sql/index.js";
import { StructOf } from "../types/datatypes.js";
import { DataFrame } from "./dataframe.js";
import type { Session } from "./session.js";

export function runViewCommand(session: Session, st: Exclude<Statement, { kind: "query" }>): DataFrame {
  if (st.kind === "dropView") {
    if (!session.catalog.dropTempView(st.name) && !st.ifExists)
      throw new AnalysisException(
        "TABLE_OR_VIEW_NOT_FOUND",
        `[TABLE_OR_VIEW_NOT_FOUND] The table or view \`spark_catalog\`.\`default\`.\`${st.name}\` cannot be found. Verify the spelling and correctness of the schema and catalog.`,
      );
  } else session.catalog.registerTempView(st.name, viewPlan(session, st.name, st.plan, st.columns), st.replace);
  return session.createDataFrame([], StructOf([]));
}

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
