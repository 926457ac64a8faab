/**
 * Where tables live: a warehouse directory (default `./spark-warehouse`, as Spark's
 * `spark.sql.warehouse.dir`), one directory per table, named like Spark's managed tables:
 * `<warehouse>/<table>` for the default database, `<warehouse>/<db>.db/<table>` otherwise.
 */
import { join, resolve } from "node:path";
import { AnalysisException } from "../../common/errors.js";
import { findOption } from "../registry.js";

export const DEFAULT_WAREHOUSE = "spark-warehouse";
export const WAREHOUSE_KEY = "spark.sql.warehouse.dir";

/** The warehouse from options (`spark.sql.warehouse.dir` or `warehouse`), absolute. */
export function warehouseDir(options: Readonly<Record<string, string>> = {}): string {
  return resolve(findOption(options, WAREHOUSE_KEY) ?? findOption(options, "warehouse") ?? DEFAULT_WAREHOUSE);
}

export interface TableIdent {
  readonly db: string;
  readonly table: string;
}

const PART = /^[A-Za-z0-9_]+$/;

/** `t`, `db.t` or `spark_catalog.db.t` (back-quotes allowed); names are case-insensitive. */
export function parseTableName(name: string): TableIdent {
  const parts = name.split(".").map((p) => p.trim().replace(/^`(.*)`$/, "$1"));
  if (parts.length === 3 && parts[0]!.toLowerCase() === "spark_catalog") parts.shift();
  if (parts.length > 2 || parts.some((p) => !PART.test(p))) {
    throw new AnalysisException(
      "INVALID_IDENTIFIER",
      `[INVALID_IDENTIFIER] The identifier ${name} is invalid. Table names are [db.]name made of letters, digits and underscores.`,
    );
  }
  const [db, table] = parts.length === 2 ? parts : ["default", parts[0]!];
  return { db: db!.toLowerCase(), table: table!.toLowerCase() };
}

export function qualifiedName(id: TableIdent): string {
  return `\`spark_catalog\`.\`${id.db}\`.\`${id.table}\``;
}

export function tableDir(warehouse: string, id: TableIdent): string {
  return id.db === "default" ? join(warehouse, id.table) : join(warehouse, `${id.db}.db`, id.table);
}
