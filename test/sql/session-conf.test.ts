/**
 * `session.conf.set` / `unset` refuse what Spark's RuntimeConfig refuses, with the errors
 * PySpark 4.3.0 gave for the same calls (`spark.conf.set("spark.sql.warehouse.dir", ...)`, ...):
 * static and core settings, values of the wrong type for the settings arus reads. The builder's
 * settings of a new session are not checked; `getOrCreate` on a running session ignores static
 * and core settings, as Spark does, and checks the rest.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { Session } from "../../src/index.js";

const warehouse = mkdtempSync(path.join(tmpdir(), "arus-conf-"));
const s = new Session({ "spark.sql.warehouse.dir": warehouse, "spark.sql.shuffle.partitions": "3" });
after(async () => {
  await s.stop();
  rmSync(warehouse, { recursive: true, force: true });
});

/** `f` throws an error of `errorClass` whose message matches `message`. */
const refuses = (f: () => void, errorClass: string, message: RegExp) =>
  assert.throws(f, (e: Error & { errorClass?: string }) => {
    assert.equal(e.errorClass, errorClass, e.message);
    assert.match(e.message, message);
    return true;
  });

describe("session.conf", () => {
  it("refuses to set or unset a static setting, or a Spark core one", () => {
    const staticError =
      /^\[CANNOT_MODIFY_STATIC_CONFIG\] Cannot modify the value of the static Spark config: "spark\.sql\.warehouse\.dir"\. SQLSTATE: 46110$/;
    refuses(() => s.conf.set("spark.sql.warehouse.dir", "/tmp/elsewhere"), "CANNOT_MODIFY_STATIC_CONFIG", staticError);
    refuses(() => s.conf.unset("spark.sql.warehouse.dir"), "CANNOT_MODIFY_STATIC_CONFIG", staticError);
    const coreError = /^\[CANNOT_MODIFY_CONFIG\] Cannot modify the value of the Spark config: "spark\.executor\.memory"\.\n/;
    refuses(() => s.conf.set("spark.executor.memory", "1g"), "CANNOT_MODIFY_CONFIG", coreError);
    refuses(() => s.conf.unset("spark.executor.memory"), "CANNOT_MODIFY_CONFIG", coreError);
    assert.equal(s.conf.get("spark.sql.warehouse.dir"), warehouse, "the refused change left the setting");
  });

  it("refuses a value of the wrong type, and keeps the old one", () => {
    const invalid = (key: string, value: string, sub: string, why: string) =>
      refuses(
        () => s.conf.set(key, value),
        `INVALID_CONF_VALUE.${sub}`,
        new RegExp(
          `^\\[INVALID_CONF_VALUE\\.${sub.replace(".", "\\.")}\\] The value '${value}' in the config "${key.replaceAll(".", "\\.")}" is invalid\\. ${why} SQLSTATE: 22022$`,
        ),
      );
    invalid("spark.sql.shuffle.partitions", "abc", "TYPE_MISMATCH", "It should be a/an 'int' value\\.");
    invalid("spark.sql.shuffle.partitions", "0", "REQUIREMENT", "The value of spark\\.sql\\.shuffle\\.partitions must be positive");
    invalid("spark.sql.ansi.enabled", "yes", "TYPE_MISMATCH", "It should be a/an 'boolean' value\\.");
    invalid("spark.sql.streaming.pollingDelay", "10x", "TYPE_MISMATCH", "It should be a/an 'time in MILLISECONDS' value\\.");
    invalid("spark.sql.legacy.timeParserPolicy", "foo", "OUT_OF_RANGE_OF_OPTIONS", "It should be one of 'EXCEPTION, LEGACY, CORRECTED'\\.");
    invalid("spark.sql.session.timeZone", "Nowhere/City", "TIME_ZONE", "Cannot resolve the given timezone\\.");
    assert.equal(s.conf.get("spark.sql.shuffle.partitions"), "3");
  });

  it("takes numbers and booleans for typed settings, and any value for other keys", () => {
    s.conf.set("spark.sql.shuffle.partitions", 4);
    s.conf.set("spark.sql.ansi.enabled", false);
    s.conf.set("spark.app.name", "renamed"); // neither static nor core in Spark: accepted
    s.conf.set("arus.some.setting", "anything");
    assert.equal(s.conf.get("spark.sql.shuffle.partitions"), "4");
    assert.equal(s.conf.get("spark.sql.ansi.enabled"), "false");
    assert.equal(s.conf.get("spark.app.name"), "renamed");
    s.conf.unset("spark.sql.ansi.enabled");
    assert.equal(s.conf.get("spark.sql.ansi.enabled"), "true");
    s.conf.set("spark.sql.shuffle.partitions", "3");
  });

  it("SQL's RESET puts back the builder's settings, static ones included", () => {
    s.conf.set("spark.sql.shuffle.partitions", "9");
    s.sql("RESET").collect();
    assert.equal(s.conf.get("spark.sql.shuffle.partitions"), "3");
    assert.equal(s.conf.get("spark.sql.warehouse.dir"), warehouse);
  });

  it("getOrCreate on a running session ignores static and core settings and checks the others", () => {
    const before = Session.active;
    Session.active = s;
    try {
      const same = Session.builder()
        .config("spark.sql.warehouse.dir", "/tmp/other")
        .config("spark.executor.memory", "2g")
        .config("spark.sql.shuffle.partitions", "7")
        .getOrCreate();
      assert.equal(same, s);
      assert.equal(s.conf.get("spark.sql.warehouse.dir"), warehouse, "static setting ignored");
      assert.equal(s.conf.getOption("spark.executor.memory"), undefined, "core setting ignored");
      assert.equal(s.conf.get("spark.sql.shuffle.partitions"), "7");
      refuses(
        () => Session.builder().config("spark.sql.shuffle.partitions", "abc").getOrCreate(),
        "INVALID_CONF_VALUE.TYPE_MISMATCH",
        /The value 'abc' in the config "spark\.sql\.shuffle\.partitions" is invalid/,
      );
      assert.equal(s.conf.get("spark.sql.shuffle.partitions"), "7");
    } finally {
      s.conf.set("spark.sql.shuffle.partitions", "3");
      Session.active = before;
    }
  });
});
