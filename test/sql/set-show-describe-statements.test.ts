/**
 * `spark.sql("SET ...")`, RESET, SHOW TABLES / VIEWS / COLUMNS and DESCRIBE: the rows, columns and
 * errors PySpark 4.3.0 gave for the same statements (local[1], shuffle.partitions=1, UTC).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { Session } from "../../src/index.js";

const warehouse = mkdtempSync(path.join(tmpdir(), "arus-sqlcmd-"));
const s = new Session({
  "spark.sql.shuffle.partitions": "1",
  "spark.sql.session.timeZone": "UTC",
  "spark.sql.warehouse.dir": warehouse,
});
after(async () => {
  await s.stop();
  rmSync(warehouse, { recursive: true, force: true });
});

const rowsOf = (text: string) => s.sql(text).collect();
const fails = (text: string, errorClass: string, message?: RegExp) =>
  assert.throws(
    () => s.sql(text),
    (e: Error & { errorClass?: string }) => {
      assert.equal(e.errorClass, errorClass, e.message);
      if (message) assert.match(e.message, message);
      return true;
    },
  );
const schemaOf = (text: string) => s.sql(text).schema.fields.map((f) => [f.name, f.nullable]);

describe("SET and RESET", () => {
  it("SET key=value sets the session conf, answers the pair, and later queries see it", async () => {
    assert.deepEqual(schemaOf("SET spark.sql.shuffle.partitions"), [
      ["key", false],
      ["value", false],
    ]);
    assert.deepEqual(await rowsOf("SET spark.sql.shuffle.partitions"), [{ key: "spark.sql.shuffle.partitions", value: "1" }]);
    assert.deepEqual(await rowsOf("SET spark.sql.shuffle.partitions = 4 "), [{ key: "spark.sql.shuffle.partitions", value: "4" }]);
    assert.equal(s.conf.get("spark.sql.shuffle.partitions"), "4");
    await rowsOf("SET spark.sql.session.timeZone=America/New_York");
    assert.deepEqual(await rowsOf("SELECT current_timezone() AS tz"), [{ tz: "America/New_York" }]);
    assert.deepEqual(await rowsOf("SELECT hour(timestamp'2024-01-01 12:00:00') AS h"), [{ h: 12 }]);
    assert.deepEqual(await rowsOf("SELECT CAST(timestamp'2024-01-01 12:00:00' AS STRING) AS t"), [{ t: "2024-01-01 12:00:00" }]);
    s.sql("RESET spark.sql.session.timeZone");
    assert.deepEqual(await rowsOf("SELECT current_timezone() AS tz"), [{ tz: "UTC" }]);
    s.sql("RESET spark.sql.shuffle.partitions");
    assert.equal(s.conf.get("spark.sql.shuffle.partitions"), "1"); // the session's initial setting, as Spark
  });

  it("Spark's parse of the raw text: separators, semicolons, backquotes", async () => {
    assert.deepEqual(await rowsOf("SET a=b;"), [{ key: "a", value: "b" }]);
    assert.deepEqual(await rowsOf("SET a= b ; "), [{ key: "a", value: "b" }]);
    assert.deepEqual(await rowsOf("SET a=b=c"), [{ key: "a", value: "b=c" }]);
    assert.deepEqual(await rowsOf("set a.b = 'quoted'"), [{ key: "a.b", value: "'quoted'" }]);
    assert.deepEqual(await rowsOf("SET `a b` = `c d`"), [{ key: "a b", value: "c d" }]);
    assert.deepEqual(await rowsOf("SET `x`=`a;b`"), [{ key: "x", value: "a;b" }]);
    assert.deepEqual(await rowsOf("SET `k1` = raw value"), [{ key: "k1", value: "raw value" }]);
    assert.deepEqual(await rowsOf("SET k4 = `quoted v`"), [{ key: "k4", value: "quoted v" }]);
    assert.deepEqual(await rowsOf("SET k7="), [{ key: "k7", value: "" }]);
    assert.deepEqual(await rowsOf("SET spark:x.y=1"), [{ key: "spark:x.y", value: "1" }]);
    assert.deepEqual(await rowsOf("SET unknown.key"), [{ key: "unknown.key", value: "<undefined>" }]);
    assert.deepEqual(await rowsOf("SET TIME ZONE 'Asia/Tokyo'"), [{ key: "spark.sql.session.timeZone", value: "Asia/Tokyo" }]);
    s.sql("RESET `a b`");
    assert.deepEqual(await rowsOf("SET `a b`"), [{ key: "a b", value: "<undefined>" }]);
    const syntax =
      /^\[INVALID_SET_SYNTAX\] Expected format is 'SET', 'SET key', or 'SET key=value'\. If you want to include special characters in key, or include semicolon in value, please use backquotes, e\.g\., SET `key`=`value`\. SQLSTATE: 42000/;
    fails("SET a b=c", "INVALID_SET_SYNTAX", syntax);
    fails("SET x='a;b'", "INVALID_SET_SYNTAX", syntax);
    fails(
      "SET `k2` = raw;value",
      "INVALID_PROPERTY_VALUE",
      /^\[INVALID_PROPERTY_VALUE\] "raw;value" is an invalid property value, please use quotes, e\.g\. SET "k2"="raw;value" SQLSTATE: 42602/,
    );
    fails(
      "SET k 5 = `quoted v`",
      "INVALID_PROPERTY_KEY",
      /^\[INVALID_PROPERTY_KEY\] "k 5" is an invalid property key, please use quotes, e\.g\. SET "k 5"="quoted v"\. SQLSTATE: 42602/,
    );
    fails("RESET a b", "INVALID_RESET_COMMAND_FORMAT", /^\[INVALID_RESET_COMMAND_FORMAT\] Expected format is 'RESET' or 'RESET key'\./);
    s.sql("RESET");
  });

  it("refuses static and Spark core settings, and values of the wrong type", () => {
    fails(
      "SET spark.sql.warehouse.dir=/tmp/x",
      "CANNOT_MODIFY_STATIC_CONFIG",
      /^\[CANNOT_MODIFY_STATIC_CONFIG\] Cannot modify the value of the static Spark config: "spark\.sql\.warehouse\.dir"\. SQLSTATE: 46110$/,
    );
    fails("RESET spark.sql.warehouse.dir", "CANNOT_MODIFY_STATIC_CONFIG");
    fails(
      "SET spark.executor.memory=1g",
      "CANNOT_MODIFY_CONFIG",
      /^\[CANNOT_MODIFY_CONFIG\] Cannot modify the value of the Spark config: "spark\.executor\.memory"\.\nSee also 'https:\/\/spark\.apache\.org\/docs\/latest\/sql-migration-guide\.html#ddl-statements'\. SQLSTATE: 46110$/,
    );
    fails(
      "SET spark.sql.shuffle.partitions=abc",
      "INVALID_CONF_VALUE.TYPE_MISMATCH",
      /^\[INVALID_CONF_VALUE\.TYPE_MISMATCH\] The value 'abc' in the config "spark\.sql\.shuffle\.partitions" is invalid\. It should be a\/an 'int' value\. SQLSTATE: 22022$/,
    );
    fails(
      "SET spark.sql.shuffle.partitions=0",
      "INVALID_CONF_VALUE.REQUIREMENT",
      /The value '0' in the config "spark\.sql\.shuffle\.partitions" is invalid\. The value of spark\.sql\.shuffle\.partitions must be positive SQLSTATE: 22022$/,
    );
    fails("SET spark.sql.ansi.enabled=maybe", "INVALID_CONF_VALUE.TYPE_MISMATCH", /It should be a\/an 'boolean' value\./);
    fails(
      "SET spark.sql.streaming.pollingDelay=abc",
      "INVALID_CONF_VALUE.TYPE_MISMATCH",
      /It should be a\/an 'time in MILLISECONDS' value\./,
    );
    fails(
      "SET spark.sql.session.timeZone=Nowhere/Land",
      "INVALID_CONF_VALUE.TIME_ZONE",
      /^\[INVALID_CONF_VALUE\.TIME_ZONE\] The value 'Nowhere\/Land' in the config "spark\.sql\.session\.timeZone" is invalid\. Cannot resolve the given timezone\. SQLSTATE: 22022$/,
    );
    fails("SET spark.sql.streaming.multipleWatermarkPolicy=avg", "INVALID_CONF_VALUE.REQUIREMENT", /Valid values are 'min' and 'max'/);
    // refused values leave the setting alone; SET accepts what Spark accepts
    assert.equal(s.conf.get("spark.sql.shuffle.partitions"), "1");
    s.sql("SET spark.sql.ansi.enabled=FALSE");
    assert.equal(s.conf.getBool("spark.sql.ansi.enabled"), false);
    s.sql("SET spark.master=local[2]"); // not a registered Spark core entry: Spark accepts it
    s.sql("RESET");
    assert.equal(s.conf.getBool("spark.sql.ansi.enabled"), true);
    assert.equal(s.conf.getOption("spark.master"), undefined);
  });

  it("SET lists the settings made, sorted, with the warehouse; RESET goes back to the initial ones", async () => {
    s.sql("SET zz.custom=1");
    const keys = (await rowsOf("SET")).map((r) => r.key);
    assert.deepEqual(keys, [...keys].sort());
    for (const k of [
      "spark.app.name",
      "spark.sql.session.timeZone",
      "spark.sql.shuffle.partitions",
      "spark.sql.warehouse.dir",
      "zz.custom",
    ])
      assert.ok(keys.includes(k), k);
    s.sql("SET spark.sql.shuffle.partitions=7");
    s.sql("RESET;");
    const after = await rowsOf("SET");
    assert.ok(!after.some((r) => r.key === "zz.custom"));
    assert.deepEqual(
      after.find((r) => r.key === "spark.sql.shuffle.partitions"),
      { key: "spark.sql.shuffle.partitions", value: "1" },
    );
    assert.equal(s.sql("RESET").columns.length, 0);
  });
});

describe("SHOW TABLES / VIEWS / COLUMNS and DESCRIBE", () => {
  it("SHOW TABLES and SHOW VIEWS list temp views lower-cased and sorted, saved tables first", async () => {
    assert.deepEqual(schemaOf("SHOW TABLES"), [
      ["namespace", false],
      ["tableName", false],
      ["isTemporary", false],
    ]);
    assert.deepEqual(await rowsOf("SHOW VIEWS"), []);
    s.range(3).createOrReplaceTempView("Zed");
    s.range(3).createOrReplaceTempView("alpha");
    s.sql("CREATE OR REPLACE TEMP VIEW v1 AS SELECT 1 AS a");
    await s.range(2).write.saveAsTable("plain");
    assert.deepEqual(await rowsOf("SHOW TABLES"), [
      { namespace: "default", tableName: "plain", isTemporary: false },
      { namespace: "", tableName: "alpha", isTemporary: true },
      { namespace: "", tableName: "v1", isTemporary: true },
      { namespace: "", tableName: "zed", isTemporary: true },
    ]);
    assert.deepEqual(await rowsOf("SHOW VIEWS"), [
      { namespace: "", viewName: "alpha", isTemporary: true },
      { namespace: "", viewName: "v1", isTemporary: true },
      { namespace: "", viewName: "zed", isTemporary: true },
    ]);
    const names = async (q: string) => (await rowsOf(q)).map((r) => r.tableName ?? r.viewName);
    assert.deepEqual(await names("SHOW TABLES LIKE 'a*'"), ["alpha"]);
    assert.deepEqual(await names("SHOW TABLES FROM default LIKE 'v1|zed'"), ["v1", "zed"]);
    assert.deepEqual(await names("SHOW TABLES 'A*'"), ["alpha"]);
    assert.deepEqual(await names("SHOW TABLES LIKE ' alpha | zed '"), []); // a regular expression: the spaces count
    assert.deepEqual(await names("SHOW VIEWS IN spark_catalog.default LIKE 'v*'"), ["v1"]);
    assert.deepEqual(await names("SHOW TABLES IN global_temp"), ["alpha", "v1", "zed"]);
    fails("SHOW TABLES IN nosuchdb", "SCHEMA_NOT_FOUND", /^\[SCHEMA_NOT_FOUND\] The schema `spark_catalog`\.`nosuchdb` cannot be found\./);
    fails("SHOW VIEWS IN default.x", "NESTED_DATABASE_UNSUPPORTED_BY_V1_SESSION_CATALOG");
  });

  it("SHOW COLUMNS and DESCRIBE give Spark's columns and type names", async () => {
    s.sql(
      "CREATE OR REPLACE TEMP VIEW typed AS SELECT 1 AS a, 'x' AS b, CAST(1.5 AS DECIMAL(10,2)) AS c, array(1, 2) AS arr, " +
        "map('k', 1) AS m, named_struct('x', 1, 'y', 's') AS st, current_timestamp() AS ts, current_date() AS d, " +
        "CAST(1 AS BIGINT) l, CAST(1 AS TINYINT) t, CAST(1 AS SMALLINT) sm, 1.5d dd, CAST(1 AS FLOAT) f, CAST('a' AS BINARY) bin, true bo, INTERVAL 1 DAY iv",
    );
    assert.deepEqual(schemaOf("SHOW COLUMNS IN typed"), [["col_name", false]]);
    assert.deepEqual(
      (await rowsOf("SHOW COLUMNS FROM `TYPED`")).map((r) => r.col_name),
      ["a", "b", "c", "arr", "m", "st", "ts", "d", "l", "t", "sm", "dd", "f", "bin", "bo", "iv"],
    );
    assert.deepEqual(schemaOf("DESCRIBE typed"), [
      ["col_name", false],
      ["data_type", false],
      ["comment", true],
    ]);
    const types = [
      "int",
      "string",
      "decimal(10,2)",
      "array<int>",
      "map<string,int>",
      "struct<x:int,y:string>",
      "timestamp",
      "date",
      "bigint",
      "tinyint",
      "smallint",
      "double",
      "float",
      "binary",
      "boolean",
      "interval day",
    ];
    const described = await rowsOf("DESCRIBE typed");
    assert.deepEqual(
      described.map((r) => r.data_type),
      types,
    );
    assert.ok(described.every((r) => r.comment === null));
    assert.deepEqual(await rowsOf("DESC TABLE EXTENDED typed"), described); // a temp view has nothing more
    assert.deepEqual(await rowsOf("DESCRIBE typed A"), [
      { info_name: "col_name", info_value: "A" },
      { info_name: "data_type", info_value: "int" },
      { info_name: "comment", info_value: "NULL" },
    ]);
    fails("DESCRIBE typed nosuch", "COLUMN_NOT_FOUND", /^\[COLUMN_NOT_FOUND\] The column `nosuch` cannot be found\./);
    fails("DESCRIBE typed st.x", "_LEGACY_ERROR_TEMP_1060", /DESC TABLE COLUMN does not support nested column: st\.x\./);
    s.createDataFrame([{ a: 1, b: "x" }], "a INT, b STRING").createOrReplaceTempView("cm");
    assert.deepEqual(await rowsOf("DESCRIBE QUERY SELECT 1 AS x"), [{ col_name: "x", data_type: "int", comment: null }]);
    assert.deepEqual(await rowsOf("DESCRIBE SELECT 1 AS x"), [{ col_name: "x", data_type: "int", comment: null }]);
    fails("DESCRIBE nosuch", "TABLE_OR_VIEW_NOT_FOUND");
    fails("SHOW COLUMNS IN default.typed", "TABLE_OR_VIEW_NOT_FOUND"); // a temp view is in no namespace
  });

  it("a saved partitioned table shows its partition section; a streaming view can be described", async () => {
    await s.range(3).selectExpr("id", "id % 2 AS p").write.partitionBy("p").saveAsTable("pt");
    assert.deepEqual(await rowsOf("DESCRIBE default.pt"), [
      { col_name: "id", data_type: "bigint", comment: null },
      { col_name: "p", data_type: "bigint", comment: null },
      { col_name: "# Partition Information", data_type: "", comment: "" },
      { col_name: "# col_name", data_type: "data_type", comment: "comment" },
      { col_name: "p", data_type: "bigint", comment: null },
    ]);
    s.readStream.format("rate").load().createOrReplaceTempView("sv");
    assert.deepEqual(await rowsOf("DESCRIBE sv"), [
      { col_name: "timestamp", data_type: "timestamp", comment: null },
      { col_name: "value", data_type: "bigint", comment: null },
    ]);
    assert.deepEqual(await rowsOf("SHOW COLUMNS IN sv"), [{ col_name: "timestamp" }, { col_name: "value" }]);
  });

  it("results are DataFrames: show() prints Spark's table", async () => {
    assert.equal(
      (await s.sql("DESCRIBE cm").showString()).trim(),
      [
        "+--------+---------+-------+",
        "|col_name|data_type|comment|",
        "+--------+---------+-------+",
        "|       a|      int|   NULL|",
        "|       b|   string|   NULL|",
        "+--------+---------+-------+",
      ].join("\n"),
    );
  });

  it("other catalog statements stay refused", () => {
    fails("USE default", "PARSE_SYNTAX_ERROR");
    fails("CREATE TABLE t (a INT)", "PARSE_SYNTAX_ERROR");
    fails("DESCRIBE FUNCTION abs", "PARSE_SYNTAX_ERROR", /DESCRIBE FUNCTION is not supported by arus/);
  });
});
