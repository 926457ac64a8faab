/**
 * The random query + input generator of the differential fuzzer.
 *
 * One random description (columns, a pipeline of steps, an output mode, input batches) is
 * rendered twice: as PySpark source and as arus TypeScript source (the same chain of calls in
 * each API), so both engines run "the same" query. Every expression node carries its three
 * renderings (PySpark Column API, arus Column API, SQL text); a step uses either the Column API
 * or the SQL text (`df.filter("...")`, `F.expr("...")`), chosen at random.
 *
 * Excluded on purpose (nondeterministic in Spark, so not a real difference): first/last,
 * max_by/min_by, approx_* and collect_* aggregates, float sums whose value depends on order
 * (doubles here are small dyadic fractions, so every sum is exact), division by a column.
 */
import { type CaseDef, type InputRow, t } from "../case.js";
import { Rng } from "./prng.js";

/** Bumped whenever a change to the generator changes what a seed produces (seeds are comparable within a version). */
export const GEN_VERSION = 7;

export type Ty = "int" | "bigint" | "double" | "string" | "bool" | "ts";

/** An expression in the three syntaxes. */
export interface Ex {
  py: string;
  ts: string;
  sql: string;
  type: Ty;
}

interface Col {
  name: string;
  type: Ty;
}

const q = (s: string) => JSON.stringify(s);
const sq = (s: string) => `'${s.replace(/'/g, "''")}'`;

function colEx(c: Col): Ex {
  return { py: `F.col(${q(c.name)})`, ts: `F.col(${q(c.name)})`, sql: `\`${c.name}\``, type: c.type };
}
function intLit(n: number): Ex {
  return { py: `F.lit(${n})`, ts: `F.lit(${n})`, sql: n < 0 ? `(${n})` : `${n}`, type: "int" };
}
function strLit(s: string): Ex {
  return { py: `F.lit(${q(s)})`, ts: `F.lit(${q(s)})`, sql: sq(s), type: "string" };
}
function dblLit(x: number): Ex {
  // never an integral value: JS would render 2.0 as 2, an INT literal in arus
  return { py: `F.lit(${x})`, ts: `F.lit(${x})`, sql: `CAST(${x} AS DOUBLE)`, type: "double" };
}
function tsLit(sec: number): Ex {
  const iso = t(sec).slice(0, 19).replace("T", " ");
  return {
    py: `F.lit(${q(iso)}).cast("timestamp")`,
    ts: `F.lit(${q(iso)}).cast("timestamp")`,
    sql: `TIMESTAMP ${sq(iso)}`,
    type: "ts",
  };
}

const BIN: Record<string, { py: string; ts: string; sql: string }> = {
  "+": { py: "+", ts: "plus", sql: "+" },
  "-": { py: "-", ts: "minus", sql: "-" },
  "*": { py: "*", ts: "multiply", sql: "*" },
  "%": { py: "%", ts: "mod", sql: "%" },
  "/": { py: "/", ts: "divide", sql: "/" },
  ">": { py: ">", ts: "gt", sql: ">" },
  ">=": { py: ">=", ts: "geq", sql: ">=" },
  "<": { py: "<", ts: "lt", sql: "<" },
  "<=": { py: "<=", ts: "leq", sql: "<=" },
  "==": { py: "==", ts: "equalTo", sql: "=" },
  "!=": { py: "!=", ts: "notEqual", sql: "<>" },
  "&": { py: "&", ts: "and", sql: "AND" },
  "|": { py: "|", ts: "or", sql: "OR" },
};
function bin(op: string, a: Ex, b: Ex, type: Ty): Ex {
  const o = BIN[op];
  return { py: `(${a.py} ${o.py} ${b.py})`, ts: `${a.ts}.${o.ts}(${b.ts})`, sql: `(${a.sql} ${o.sql} ${b.sql})`, type };
}
function fn(name: string, args: Ex[], type: Ty, sqlName = name): Ex {
  return {
    py: `F.${name}(${args.map((a) => a.py).join(", ")})`,
    ts: `F.${name}(${args.map((a) => a.ts).join(", ")})`,
    sql: `${sqlName}(${args.map((a) => a.sql).join(", ")})`,
    type,
  };
}
function method(a: Ex, pyM: string, tsM: string, sqlText: string, type: Ty, args = ""): Ex {
  return { py: `${a.py}.${pyM}(${args})`, ts: `${a.ts}.${tsM}(${args})`, sql: sqlText, type };
}

/** Random expressions over the current columns. */
class ExprGen {
  constructor(
    private r: Rng,
    private cols: Col[],
  ) {}

  private colOf(type: Ty): Ex | null {
    const cs = this.cols.filter((c) => c.type === type);
    if (!cs.length) return null;
    const c = this.r.pick(cs);
    // now and then the name in another case: Spark resolves names case-insensitively
    return colEx(this.r.bool(0.05) ? { ...c, name: c.name.toUpperCase() } : c);
  }

  int(depth: number): Ex {
    const r = this.r;
    const leaf = (): Ex => this.colOf("int") ?? intLit(r.int(-3, 5));
    if (depth <= 0 || r.bool(0.35)) return r.bool(0.8) ? leaf() : intLit(r.int(-3, 7));
    switch (r.int(0, 8)) {
      case 0:
        return bin(r.pick(["+", "-"]), this.int(depth - 1), this.int(depth - 1), "int");
      case 1:
        return bin("*", leaf(), intLit(r.int(-2, 3)), "int");
      case 2:
        return bin("%", this.int(depth - 1), intLit(r.pick([2, 3, 5, -3])), "int");
      case 3:
        return fn("abs", [this.int(depth - 1)], "int");
      case 4:
        return fn("coalesce", [this.int(depth - 1), intLit(r.int(-1, 3))], "int");
      case 5: {
        const c = this.bool(depth - 1);
        const a = this.int(depth - 1);
        const b = this.int(depth - 1);
        return {
          py: `F.when(${c.py}, ${a.py}).otherwise(${b.py})`,
          ts: `F.when(${c.ts}, ${a.ts}).otherwise(${b.ts})`,
          sql: `CASE WHEN ${c.sql} THEN ${a.sql} ELSE ${b.sql} END`,
          type: "int",
        };
      }
      case 6:
        return fn("length", [this.str(depth - 1)], "int");
      case 7: {
        const ts = this.colOf("ts");
        return ts ? fn("second", [ts], "int") : leaf();
      }
      default:
        return fn(r.pick(["greatest", "least"]), [this.int(depth - 1), this.int(depth - 1)], "int");
    }
  }

  dbl(depth: number): Ex {
    const r = this.r;
    const d = this.colOf("double");
    if (depth <= 0 || r.bool(0.3)) return d ?? dblLit(r.pick([0.5, -1.5, 0.25]));
    switch (r.int(0, 3)) {
      case 0:
        return bin("*", this.int(depth - 1), dblLit(r.pick([0.5, 0.25, -1.5])), "double");
      case 1:
        return bin("+", this.dbl(depth - 1), this.dbl(depth - 1), "double");
      case 2: {
        const a = this.int(depth - 1);
        return { py: `${a.py}.cast("double")`, ts: `${a.ts}.cast("double")`, sql: `CAST(${a.sql} AS DOUBLE)`, type: "double" };
      }
      default:
        return bin("/", this.int(depth - 1), intLit(r.pick([2, 4, -4])), "double");
    }
  }

  str(depth: number): Ex {
    const r = this.r;
    const leaf = (): Ex => this.colOf("string") ?? strLit(r.pick(["a", "x"]));
    if (depth <= 0 || r.bool(0.35)) return leaf();
    switch (r.int(0, 4)) {
      case 0:
        return fn(r.pick(["upper", "lower"]), [this.str(depth - 1)], "string");
      case 1:
        return fn("concat", [this.str(depth - 1), strLit(r.pick(["x", "-", "A"]))], "string");
      case 2:
        return fn("coalesce", [this.str(depth - 1), strLit(r.pick(["z", ""]))], "string");
      case 3: {
        const a = this.str(depth - 1);
        return {
          py: `F.substring(${a.py}, 1, 1)`,
          ts: `F.substring(${a.ts}, 1, 1)`,
          sql: `substring(${a.sql}, 1, 1)`,
          type: "string",
        };
      }
      default: {
        const a = this.int(depth - 1);
        return { py: `${a.py}.cast("string")`, ts: `${a.ts}.cast("string")`, sql: `CAST(${a.sql} AS STRING)`, type: "string" };
      }
    }
  }

  bool(depth: number): Ex {
    const r = this.r;
    switch (r.int(0, depth <= 0 ? 5 : 8)) {
      case 0:
      case 1:
        return bin(r.pick([">", ">=", "<", "<=", "==", "!="]), this.int(depth - 1), intLit(r.int(-2, 12)), "bool");
      case 2: {
        const s = this.str(depth - 1);
        const vals = r.subset(["a", "b", "c", "A", "ab"], 1).slice(0, 3);
        return {
          py: `${s.py}.isin(${vals.map(q).join(", ")})`,
          ts: `${s.ts}.isin(${vals.map(q).join(", ")})`,
          sql: `(${s.sql} IN (${vals.map(sq).join(", ")}))`,
          type: "bool",
        };
      }
      case 3: {
        const x = r.pick([() => this.int(0), () => this.str(0), () => this.dbl(0)])();
        return r.bool()
          ? method(x, "isNull", "isNull", `(${x.sql} IS NULL)`, "bool")
          : method(x, "isNotNull", "isNotNull", `(${x.sql} IS NOT NULL)`, "bool");
      }
      case 4: {
        const ts = this.colOf("ts");
        if (!ts) return bin(">", this.int(0), intLit(0), "bool");
        return bin(r.pick([">", ">=", "<", "<="]), ts, tsLit(r.pick([5, 10, 15, 20, 30])), "bool");
      }
      case 5: {
        const s = this.str(0);
        const p = r.pick(["a%", "%b", "%b%", "a"]);
        return { py: `${s.py}.like(${q(p)})`, ts: `${s.ts}.like(${q(p)})`, sql: `(${s.sql} LIKE ${sq(p)})`, type: "bool" };
      }
      case 6:
        return bin(r.pick(["&", "|"]), this.bool(depth - 1), this.bool(depth - 1), "bool");
      case 7: {
        const a = this.bool(depth - 1);
        return { py: `(~${a.py})`, ts: `${a.ts}.not()`, sql: `(NOT ${a.sql})`, type: "bool" };
      }
      default: {
        const a = this.int(depth - 1);
        const b = this.int(depth - 1);
        return { py: `${a.py}.eqNullSafe(${b.py})`, ts: `${a.ts}.eqNullSafe(${b.ts})`, sql: `(${a.sql} <=> ${b.sql})`, type: "bool" };
      }
    }
  }

  any(depth: number): Ex {
    return this.r.weighted<() => Ex>([
      [4, () => this.int(depth)],
      [2, () => this.str(depth)],
      [1, () => this.dbl(depth)],
      [1, () => this.bool(depth)],
    ])();
  }
}

/** One step of the chain, rendered for both engines (`.method(...)`). */
interface Step {
  py: string;
  ts: string;
}

export type OutputMode = "append" | "update" | "complete";

export interface Generated {
  def: CaseDef;
  /** PySpark expression and arus arrow-function source, as they go into a case file. */
  pyspark: string;
  arusSrc: string;
  /** A short summary of the shape, for the run's table. */
  shape: string;
  /** Set for a SQL case (then `pyspark` holds the same text and `arusSrc` is empty). */
  sql?: string;
}

const BASE_COLS: Col[] = [
  { name: "k", type: "string" },
  { name: "k2", type: "int" },
  { name: "v", type: "int" },
  { name: "d", type: "double" },
  { name: "ts", type: "ts" },
];
const SCHEMA = "k STRING, k2 INT, v INT, d DOUBLE, ts TIMESTAMP";

const DELAYS = ["0 seconds", "1 second", "5 seconds", "10 seconds", "500 milliseconds", "7 seconds", "1 minute"];
const TUMBLING = ["5 seconds", "10 seconds", "20 seconds", "3 seconds"];
const SLIDING: [string, string][] = [
  ["10 seconds", "5 seconds"],
  ["10 seconds", "3 seconds"],
  ["20 seconds", "10 seconds"],
  ["6 seconds", "4 seconds"],
  ["15 seconds", "5 seconds"],
];
const GAPS = ["3 seconds", "5 seconds", "10 seconds"];

export interface GenOptions {
  /**
   * Sometimes omit a NULL field from the JSON line instead of writing `null`. Off by default:
   * Spark's JSON parser never evaluates a pushed filter on a field a line lacks, so such rows
   * count in numInputRows (fuzz/found/pushed-filter-missing-json-field), which drowned
   * everything else.
   */
  missingFields?: boolean;
  /** Only this kind of case (default: a mix, 75 % single input, 15 % join, 10 % SQL). */
  kind?: "single" | "join" | "sql";
}

/** Generates one case from its seed: a single-input query, or (15 %) a stream-stream join. */
export function generate(seed: number, opts: GenOptions = {}): Generated {
  const kind = new Rng(seed ^ 0x5bd1e995).next();
  if (opts.kind === "join" || (!opts.kind && kind < 0.15)) return generateJoin(seed);
  if (opts.kind === "sql" || (!opts.kind && kind < 0.25)) return generateSql(seed);
  return generateSingle(seed, opts);
}

/** Input rows for `nBatches` triggers with a clock that moves on, late rows and repeats. */
function timedBatches(r: Rng, nBatches: number, row: (ts: string | null) => InputRow): InputRow[][] {
  const batches: InputRow[][] = [];
  let clock = r.int(0, 20);
  const seen: InputRow[] = [];
  for (let b = 0; b < nBatches; b++) {
    clock += r.weighted([
      [1, 0],
      [4, r.int(1, 15)],
      [1, r.int(15, 40)],
    ]);
    const rows: InputRow[] = [];
    const n = r.bool(0.15) ? 0 : r.int(1, 4);
    for (let i = 0; i < n; i++) {
      if (seen.length && r.bool(0.1)) {
        rows.push({ ...r.pick(seen) });
        continue;
      }
      const ts = r.bool(0.03)
        ? null
        : t(
            clock +
              r.weighted([
                [3, 5 * r.int(-3, 1)],
                [3, r.int(-20, 5)],
              ]),
            r.weighted([
              [10, 0],
              [1, -1],
              [1, 1],
            ]),
          );
      const x = row(ts);
      rows.push(x);
      seen.push(x);
    }
    batches.push(rows);
  }
  return batches;
}

/**
 * A stream-stream join of l(k, lt, v) and r(rk, rt, w): watermarks on either side, an equality
 * on the key and (mostly) a time range, inner/outer/semi (sometimes a type Spark refuses without
 * the right watermarks), optionally a windowed count after it.
 */
export function generateJoin(seed: number): Generated {
  const r = new Rng(seed);
  const shape: string[] = ["join"];
  const wm = (col: string) => {
    if (!r.bool(0.85)) return "";
    const d = r.pick(["0 seconds", "5 seconds", "10 seconds", "2 seconds"]);
    shape.push(`wm ${col} ${d}`);
    return `.withWatermark(${q(col)}, ${q(d)})`;
  };
  const lw = wm("lt");
  const rw = wm("rt");
  const conj: string[] = [];
  if (r.bool(0.95)) conj.push("k = rk");
  const timeForm = r.weighted<string>([
    [4, "range"],
    [2, "between"],
    [1, "equal"],
    [1.5, "none"],
  ]);
  if (timeForm === "range") conj.push(`rt >= lt AND rt <= lt + interval ${r.pick([0, 5, 10])} seconds`);
  else if (timeForm === "between")
    conj.push(`rt BETWEEN lt - interval ${r.pick([2, 5])} seconds AND lt + interval ${r.pick([3, 5])} seconds`);
  else if (timeForm === "equal") conj.push("lt = rt");
  if (r.bool(0.2)) conj.push(r.pick(["v > 2", "w < 5", "v <= w", "rk <> 'c'"]));
  if (!conj.length) conj.push("k = rk");
  const cond = conj.join(" AND ");
  shape.push(timeForm);
  const how = r.weighted<string>([
    [4, "inner"],
    [2, "left_outer"],
    [1.5, "right_outer"],
    [1.5, "full_outer"],
    [1.5, "left_semi"],
    [0.3, "left_anti"],
  ]);
  shape.push(how);
  let post = "";
  if (r.bool(0.15) && lw) {
    post = `.groupBy(F.window("lt", ${q(r.pick(["10 seconds", "5 seconds"]))})).count()`;
    shape.push("window count");
  } else if (r.bool(0.15)) {
    post = how === "left_semi" || how === "left_anti" ? `.select("k", "lt")` : `.select("k", "rk", "lt", "rt")`;
    shape.push("select");
  }
  const outputMode: OutputMode = r.bool(0.9) ? "append" : r.pick(["update", "complete"] as OutputMode[]);
  const nBatches = r.int(2, 5);
  const key = () =>
    r.weighted<string | null>([
      [4, "a"],
      [3, "b"],
      [2, "c"],
      [1, null],
    ]);
  const lb = timedBatches(r, nBatches, (ts) => ({ k: key(), lt: ts, v: r.bool(0.1) ? null : r.int(0, 9) }));
  const rb = timedBatches(r, nBatches, (ts) => ({ rk: key(), rt: ts, w: r.bool(0.1) ? null : r.int(0, 9) }));
  const restartAt = nBatches >= 3 && r.bool(0.2) ? [r.int(1, nBatches - 1)] : undefined;
  const maxPolicy = r.bool(0.2);
  if (maxPolicy) shape.push("policy max");
  const expr = `l${lw}.join(r${rw}, F.expr(${q(cond)}), ${q(how)})${post}`;
  const pyspark = `def build(spark, l, r):\n    return ${expr}`;
  const arusSrc = `({ inputs, F }) => inputs.${expr.replace(/^l/, "l").replace("join(r", "join(inputs.r")}`;
  const arus = new Function(`return (${arusSrc});`)() as CaseDef["arus"];
  const def: CaseDef = {
    description: `fuzz seed ${seed}: ${shape.join(" -> ")}, ${outputMode}`,
    inputs: [
      { name: "l", schema: "k STRING, lt TIMESTAMP, v INT", batches: lb },
      { name: "r", schema: "rk STRING, rt TIMESTAMP, w INT", batches: rb },
    ],
    outputMode,
    pyspark,
    arus,
    ...(restartAt ? { restartAt } : {}),
    ...(maxPolicy ? { confs: { "spark.sql.streaming.multipleWatermarkPolicy": "max" } } : {}),
  };
  return { def, pyspark, arusSrc, shape: `${shape.join(" -> ")} [${outputMode}${restartAt ? `, restart@${restartAt[0]}` : ""}]` };
}

/** An aggregation written as one SQL query (run as text by both engines), watermark set by the harness. */
export function generateSql(seed: number): Generated {
  const r = new Rng(seed);
  const shape: string[] = ["sql"];
  const delay = r.bool(0.8) ? r.pick(DELAYS) : null;
  if (delay) shape.push(`wm(${delay})`);
  const g = new ExprGen(r, BASE_COLS);
  const where = r.bool(0.5) ? ` WHERE ${g.bool(2).sql}` : "";
  if (where) shape.push("where");
  const time = r.weighted<string>([
    [3, "window"],
    [2, "sliding"],
    [1.5, "session"],
    [1.5, "none"],
  ]);
  const sel: string[] = [];
  const grp: string[] = [];
  if (time === "window") {
    const w = `window(ts, '${r.pick(TUMBLING)}')`;
    sel.push(r.bool() ? `${w} AS w` : `${w}.start AS ws`);
    grp.push(w);
  } else if (time === "sliding") {
    const [w, sl] = r.pick(SLIDING);
    sel.push(`window(ts, '${w}', '${sl}') AS w`);
    grp.push(`window(ts, '${w}', '${sl}')`);
  } else if (time === "session") {
    const sw = `session_window(ts, '${r.pick(GAPS)}')`;
    sel.push(`${sw} AS sw`);
    grp.push(sw);
  }
  shape.push(time);
  for (const c of r.subset(["k", "k2"])) {
    sel.push(c);
    grp.push(c);
  }
  const aggs = r
    .subset(
      [
        "count(*) AS n",
        "sum(v) AS s",
        "min(k) AS mk",
        "max(ts) AS mt",
        "avg(d) AS ad",
        "count(v) FILTER (WHERE v > 3) AS fc",
        "count_if(v > 2) AS ci",
        "max(v) - min(v) AS spread",
      ],
      1,
    )
    .slice(0, 3);
  sel.push(...aggs);
  const having = r.bool(0.15) ? ` HAVING count(*) > ${r.int(0, 2)}` : "";
  if (having) shape.push("having");
  const sql = `SELECT ${sel.join(", ")} FROM input${where}${grp.length ? ` GROUP BY ${grp.join(", ")}` : ""}${having}`;
  const timed = delay && time !== "none";
  const valid: OutputMode[] =
    time === "session"
      ? timed && grp.length > 1
        ? ["append", "complete"]
        : ["complete"]
      : timed
        ? ["append", "update", "complete"]
        : ["update", "complete"];
  const outputMode: OutputMode = r.bool(0.85) ? r.pick(valid) : r.pick(["append", "update", "complete"] as OutputMode[]);
  const nBatches = r.int(2, 5);
  const batches = timedBatches(r, nBatches, (ts) => ({
    k: r.pick(["a", "b", "c", null]),
    k2: r.pick([0, 1, null]),
    v: r.bool(0.1) ? null : r.int(-2, 9),
    d: r.pick([0.5, 1.25, -2.5, null]),
    ts,
  }));
  const restartAt = nBatches >= 3 && r.bool(0.2) ? [r.int(1, nBatches - 1)] : undefined;
  const def: CaseDef = {
    description: `fuzz seed ${seed}: ${shape.join(" -> ")}, ${outputMode}`,
    input: { schema: SCHEMA, batches, ...(delay ? { watermark: { column: "ts", delay } } : {}) },
    outputMode,
    sql,
    ...(restartAt ? { restartAt } : {}),
  };
  return {
    def,
    pyspark: sql,
    arusSrc: "",
    sql,
    shape: `${shape.join(" -> ")} [${outputMode}${restartAt ? `, restart@${restartAt[0]}` : ""}]`,
  };
}

function generateSingle(seed: number, opts: GenOptions): Generated {
  const r = new Rng(seed);
  let cols: Col[] = BASE_COLS.map((c) => ({ ...c }));
  let tsName = "ts";
  const steps: Step[] = [];
  const shape: string[] = [];
  let derived = 0;
  const newName = () => `c${derived++}`;

  const statelessStep = () => {
    const g = new ExprGen(r, cols);
    const kind = r.weighted<string>([
      [4, "filter"],
      [3, "withColumn"],
      [1.5, "select"],
      [0.5, "rename"],
      [0.5, "shiftTs"],
      [0.6, "na"],
      [0.4, "staticJoin"],
    ]);
    const sqlForm = r.bool(0.35);
    if (kind === "filter") {
      const b = g.bool(2);
      steps.push(sqlForm ? { py: `.filter(${q(b.sql)})`, ts: `.filter(${q(b.sql)})` } : { py: `.filter(${b.py})`, ts: `.filter(${b.ts})` });
      shape.push("filter");
    } else if (kind === "withColumn") {
      const e = g.any(2);
      const name = r.bool(0.15) ? "v" : newName();
      if (name === "v" && e.type !== "int") return; // keep v an INT for the aggregates
      steps.push(
        sqlForm
          ? { py: `.withColumn(${q(name)}, F.expr(${q(e.sql)}))`, ts: `.withColumn(${q(name)}, F.expr(${q(e.sql)}))` }
          : { py: `.withColumn(${q(name)}, ${e.py})`, ts: `.withColumn(${q(name)}, ${e.ts})` },
      );
      cols = [...cols.filter((c) => c.name !== name), { name, type: e.type }];
      shape.push("withColumn");
    } else if (kind === "select") {
      const keep = r.subset(
        cols.filter((c) => c.name !== tsName),
        1,
      );
      const e = r.bool(0.5) ? g.any(1) : null;
      const name = newName();
      const names = [tsName, ...keep.map((c) => c.name)];
      if (r.bool(0.5)) names.reverse();
      const pyArgs = names.map((n) => q(n));
      const tsArgs = [...pyArgs];
      if (e) {
        if (sqlForm) {
          pyArgs.push(`F.expr(${q(e.sql)}).alias(${q(name)})`);
          tsArgs.push(`F.expr(${q(e.sql)}).alias(${q(name)})`);
        } else {
          pyArgs.push(`${e.py}.alias(${q(name)})`);
          tsArgs.push(`${e.ts}.alias(${q(name)})`);
        }
      }
      steps.push({ py: `.select(${pyArgs.join(", ")})`, ts: `.select(${tsArgs.join(", ")})` });
      cols = [...names.map((n) => cols.find((c) => c.name === n)!), ...(e ? [{ name, type: e.type }] : [])];
      shape.push("select");
    } else if (kind === "staticJoin") {
      // a join with a small static table (stateless in streaming)
      if (!cols.some((c) => c.name === "k") || cols.some((c) => c.name === "sk")) return;
      const how = r.pick(["inner", "left_outer", "left_semi", "left_anti"]);
      const rows: [string | null, number][] = [
        ["a", 1],
        ["b", 2],
        [null, 3],
        ["a", 4],
      ];
      const dimRows = r.subset(rows, 1);
      const py = `spark.createDataFrame([${dimRows.map(([a, b]) => `(${a === null ? "None" : q(a)}, ${b})`).join(", ")}], "sk STRING, sx INT")`;
      const ts = `session.createDataFrame([${dimRows.map(([a, b]) => `[${a === null ? "null" : q(a)}, ${b}]`).join(", ")}], "sk STRING, sx INT")`;
      const cond = r.pick(["k = sk", "k <=> sk", "k = sk AND sx < 3"]);
      steps.push({ py: `.join(${py}, F.expr(${q(cond)}), ${q(how)})`, ts: `.join(${ts}, F.expr(${q(cond)}), ${q(how)})` });
      if (how === "inner" || how === "left_outer") cols = [...cols, { name: "sk", type: "string" }, { name: "sx", type: "int" }];
      shape.push(`staticJoin(${how})`);
    } else if (kind === "shiftTs") {
      // the event-time column moved by an interval (stays a TIMESTAMP, same name)
      const iv = r.pick(["INTERVAL 2 SECONDS", "INTERVAL 500 MILLISECONDS", "INTERVAL -3 SECONDS"]);
      const e = `F.expr(${q(`\`${tsName}\` + ${iv}`)})`;
      steps.push({ py: `.withColumn(${q(tsName)}, ${e})`, ts: `.withColumn(${q(tsName)}, ${e})` });
      shape.push("shiftTs");
    } else if (kind === "na") {
      const c = r.pick(cols.filter((x) => x.name !== tsName));
      if (r.bool() && (c.type === "int" || c.type === "string")) {
        const v = c.type === "int" ? "0" : q("n");
        steps.push({ py: `.fillna(${v}, subset=[${q(c.name)}])`, ts: `.fillna(${v}, [${q(c.name)}])` });
        shape.push("fillna");
      } else {
        steps.push({ py: `.dropna(subset=[${q(c.name)}])`, ts: `.dropna("any", undefined, [${q(c.name)}])` });
        shape.push("dropna");
      }
    } else {
      const to = "et";
      if (tsName === to) return;
      steps.push({ py: `.withColumnRenamed(${q(tsName)}, ${q(to)})`, ts: `.withColumnRenamed(${q(tsName)}, ${q(to)})` });
      cols = cols.map((c) => (c.name === tsName ? { ...c, name: to } : c));
      tsName = to;
      shape.push("rename");
    }
  };

  // 1. (a self-union), stateless steps, watermark, more stateless steps
  if (r.bool(0.07)) {
    const b = new ExprGen(r, cols).bool(1);
    steps.push({ py: `.union(df.filter(${b.py}))`, ts: `.union(df.filter(${b.ts}))` });
    shape.push("selfUnion");
  }
  for (
    let i = r.weighted([
      [5, 0],
      [3, 1],
      [1, 2],
    ]);
    i > 0;
    i--
  )
    statelessStep();
  const watermark = r.bool(0.78);
  let delay = "";
  if (watermark) {
    delay = r.pick(DELAYS);
    const wmCol = r.bool(0.06) ? tsName.toUpperCase() : tsName;
    steps.push({ py: `.withWatermark(${q(wmCol)}, ${q(delay)})`, ts: `.withWatermark(${q(wmCol)}, ${q(delay)})` });
    shape.push(`wm(${delay})`);
  }
  for (
    let i = r.weighted([
      [5, 0],
      [3, 1],
      [1, 2],
    ]);
    i > 0;
    i--
  )
    statelessStep();
  if (watermark && r.bool(0.04)) {
    // a second withWatermark on the same column (Spark keeps the last one / may refuse)
    const d2 = r.pick(DELAYS);
    steps.push({ py: `.withWatermark(${q(tsName)}, ${q(d2)})`, ts: `.withWatermark(${q(tsName)}, ${q(d2)})` });
    shape.push(`wm2(${d2})`);
  }

  // 2. the stateful part
  const kind = r.weighted<string>([
    [1.2, "none"],
    [5, "agg"],
    [2, "dedup"],
    [1.5, "dedupWW"],
    [0.5, "distinct"],
    [0.8, "dedup+agg"],
  ]);
  let timeKey: "none" | "tumbling" | "sliding" | "session" | "ts" = "none";
  let validModes: OutputMode[] = ["append", "update"];

  const dedupStep = (withinWatermark: boolean) => {
    const candidates = cols.map((c) => c.name);
    let subset = r.bool(0.15) ? null : r.subset(candidates, 1).slice(0, 3);
    if (subset && watermark && r.bool(0.5) && !subset.includes(tsName)) subset = [...subset, tsName];
    const arg = subset ? `[${subset.map(q).join(", ")}]` : "";
    const m = withinWatermark ? "dropDuplicatesWithinWatermark" : "dropDuplicates";
    steps.push({ py: `.${m}(${arg})`, ts: `.${m}(${arg})` });
    shape.push(`${m}(${subset ? subset.join(",") : "*"})`);
  };

  const aggStep = () => {
    const g = new ExprGen(r, cols);
    timeKey = r.weighted<typeof timeKey>([
      [2, "none"],
      [3, "tumbling"],
      [2, "sliding"],
      [1.5, "session"],
      [0.4, "ts"],
    ]);
    const keysPy: string[] = [];
    const keysTs: string[] = [];
    const outCols: Col[] = [];
    if (timeKey === "tumbling") {
      const w = r.pick(TUMBLING);
      const start = r.bool(0.15) ? `, ${q(w)}, ${q(r.pick(["2 seconds", "1 second"]))}` : "";
      keysPy.push(`F.window(${q(tsName)}, ${q(w)}${start})`);
      shape.push(`window(${w}${start ? " start" : ""})`);
    } else if (timeKey === "sliding") {
      const [w, s] = r.pick(SLIDING);
      keysPy.push(`F.window(${q(tsName)}, ${q(w)}, ${q(s)})`);
      shape.push(`window(${w},${s})`);
    } else if (timeKey === "session") {
      const gap = r.pick(GAPS);
      keysPy.push(`F.session_window(${q(tsName)}, ${q(gap)})`);
      shape.push(`session(${gap})`);
    } else if (timeKey === "ts") {
      keysPy.push(q(tsName));
      outCols.push({ name: tsName, type: "ts" });
      shape.push("groupBy(ts)");
    }
    keysTs.push(...keysPy);
    const keyCols = r.subset(
      cols.filter((c) => c.name !== tsName && c.type !== "double"),
      0,
    );
    for (const c of keyCols.slice(0, 2)) {
      keysPy.push(q(c.name));
      keysTs.push(q(c.name));
      outCols.push(c);
    }
    if (r.bool(0.15)) {
      const e = g.str(1);
      keysPy.push(`${e.py}.alias("g")`);
      keysTs.push(`${e.ts}.alias("g")`);
      outCols.push({ name: "g", type: "string" });
    }
    shape.push(`groupBy(${keysPy.length})`);

    const aggPy: string[] = [];
    const aggTs: string[] = [];
    let aliased = true;
    if (r.bool(0.15)) {
      steps.push({ py: `.groupBy(${keysPy.join(", ")}).count()`, ts: `.groupBy(${keysTs.join(", ")}).count()` });
      outCols.push({ name: "count", type: "bigint" });
    } else {
      const n = r.int(1, 3);
      for (let i = 0; i < n; i++) {
        const name = `a${i}`;
        const alias = r.bool(0.75);
        const numCols = cols.filter((c) => c.type === "int" || c.type === "double");
        const a = r.weighted<() => { py: string; ts: string; type: Ty; plain: boolean }>([
          [2, () => ({ py: `F.count("*")`, ts: `F.count("*")`, type: "bigint", plain: true })],
          [
            1,
            () => {
              const c = r.pick(cols);
              return { py: `F.count(${q(c.name)})`, ts: `F.count(${q(c.name)})`, type: "bigint", plain: true };
            },
          ],
          [
            2,
            () => {
              const c = numCols.length ? r.pick(numCols) : { name: "v", type: "int" as Ty };
              return { py: `F.sum(${q(c.name)})`, ts: `F.sum(${q(c.name)})`, type: c.type === "double" ? "double" : "bigint", plain: true };
            },
          ],
          [
            2,
            () => {
              const c = r.pick(cols);
              const f = r.pick(["min", "max"]);
              return { py: `F.${f}(${q(c.name)})`, ts: `F.${f}(${q(c.name)})`, type: c.type, plain: true };
            },
          ],
          [
            1,
            () => {
              const c = numCols.length ? r.pick(numCols) : { name: "v", type: "int" as Ty };
              return { py: `F.avg(${q(c.name)})`, ts: `F.avg(${q(c.name)})`, type: "double", plain: true };
            },
          ],
          [
            1,
            () => {
              const e = g.int(1);
              return { py: `F.sum(${e.py})`, ts: `F.sum(${e.ts})`, type: "bigint", plain: false };
            },
          ],
          [
            0.7,
            () => {
              const b = g.bool(1);
              return { py: `F.count_if(${b.py})`, ts: `F.count_if(${b.ts})`, type: "bigint", plain: false };
            },
          ],
          [
            0.15,
            () => {
              const c = r.pick(cols);
              return { py: `F.count_distinct(${q(c.name)})`, ts: `F.count_distinct(${q(c.name)})`, type: "bigint", plain: false };
            },
          ],
          [
            0.5,
            () => {
              const e = g.any(1);
              return { py: `F.expr(${q(`max(${e.sql})`)})`, ts: `F.expr(${q(`max(${e.sql})`)})`, type: e.type, plain: false };
            },
          ],
        ])();
        if (alias || !a.plain) {
          aggPy.push(`${a.py}.alias(${q(name)})`);
          aggTs.push(`${a.ts}.alias(${q(name)})`);
          outCols.push({ name, type: a.type });
        } else {
          aggPy.push(a.py);
          aggTs.push(a.ts);
          aliased = false;
        }
      }
      steps.push({
        py: `.groupBy(${keysPy.join(", ")}).agg(${aggPy.join(", ")})`,
        ts: `.groupBy(${keysTs.join(", ")}).agg(${aggTs.join(", ")})`,
      });
    }

    // after the aggregation
    const windowed = timeKey === "tumbling" || timeKey === "sliding" || timeKey === "session";
    let chained = false;
    if ((timeKey === "tumbling" || timeKey === "sliding") && r.bool(0.08)) {
      // a second windowed aggregation over window_time(window) (keeps the event-time marker)
      const w2 = r.pick(["20 seconds", "30 seconds"]);
      const s2 = `.select(F.window_time("window").alias("wt"), *[${outCols.map((c) => q(c.name)).join(", ")}]).groupBy(F.window("wt", ${q(w2)})).count()`;
      steps.push({ py: s2, ts: s2.replace("*[", "...[") });
      outCols.length = 0;
      outCols.push({ name: "count", type: "bigint" });
      shape.push(`window_time->window(${w2})`);
      chained = true;
    } else if (r.bool(0.04)) {
      steps.push({ py: ".dropDuplicates()", ts: ".dropDuplicates()" });
      shape.push("dropDuplicates-after-agg");
    }
    if (windowed && aliased && !chained && r.bool(0.3)) {
      const wcol = timeKey === "session" ? "session_window" : "window";
      const rest = outCols.map((c) => q(c.name));
      const s = `F.col(${q(`${wcol}.start`)}).alias("ws"), F.col(${q(`${wcol}.end`)}).alias("we")${rest.length ? `, ${rest.join(", ")}` : ""}`;
      steps.push({ py: `.select(${s})`, ts: `.select(${s})` });
      shape.push("select(window.start,end)");
    }
    const counts = outCols.filter((c) => c.type === "bigint" || c.type === "int");
    if (r.bool(0.2) && counts.length) {
      const c = r.pick(counts);
      const n = r.int(0, 2);
      steps.push({ py: `.filter(F.col(${q(c.name)}) > ${n})`, ts: `.filter(F.col(${q(c.name)}).gt(${n}))` });
      shape.push("having");
    }
    if (r.bool(0.08) && outCols.length) {
      const c = r.pick(outCols);
      steps.push({ py: `.orderBy(${q(c.name)})`, ts: `.orderBy(${q(c.name)})` });
      shape.push("orderBy");
    }
    const timed = watermark && windowed;
    if (timeKey === "session") validModes = timed ? ["append", "complete"] : ["complete"];
    else if (timed || (watermark && timeKey === "ts")) validModes = ["append", "update", "complete"];
    else validModes = ["update", "complete"];
    if (chained) validModes = ["append"];
  };

  switch (kind) {
    case "none":
      validModes = ["append", "update"];
      break;
    case "dedup":
      dedupStep(false);
      validModes = ["append", "update"];
      break;
    case "dedupWW":
      dedupStep(true);
      validModes = watermark ? ["append", "update"] : [];
      break;
    case "distinct":
      steps.push({ py: ".distinct()", ts: ".distinct()" });
      shape.push("distinct");
      validModes = ["append", "update"];
      break;
    case "agg":
      aggStep();
      break;
    case "dedup+agg":
      dedupStep(false);
      aggStep();
      break;
  }
  const all: OutputMode[] = ["append", "update", "complete"];
  const outputMode: OutputMode = validModes.length && r.bool(0.85) ? r.pick(validModes) : r.pick(all);

  // 3. inputs
  const nBatches = r.int(2, 6);
  const batches: InputRow[][] = [];
  let clock = r.int(0, 20);
  const seen: InputRow[] = [];
  for (let b = 0; b < nBatches; b++) {
    clock += r.weighted([
      [1, 0],
      [4, r.int(1, 15)],
      [1, r.int(15, 40)],
    ]);
    const rows: InputRow[] = [];
    const n = r.bool(0.08) ? 0 : r.int(1, r.bool(0.2) ? 10 : 6);
    for (let i = 0; i < n; i++) {
      if (seen.length && r.bool(0.12)) {
        rows.push({ ...r.pick(seen) });
        continue;
      }
      const row: InputRow = {};
      const put = (name: string, v: InputRow[string]) => {
        // a NULL is written, or (with missingFields) sometimes left out; the draw is made either way
        if (r.bool(0.7) || v !== null || !opts.missingFields) row[name] = v;
      };
      put(
        "k",
        r.weighted([
          [4, "a"],
          [3, "b"],
          [2, "c"],
          [1, "A"],
          [1, "ab"],
          [1, null],
        ]),
      );
      put(
        "k2",
        r.weighted([
          [3, 0],
          [3, 1],
          [2, 2],
          [1, null],
        ]),
      );
      put("v", r.bool(0.12) ? null : r.int(-5, 20));
      put("d", r.pick([0.5, 1.25, -2.5, 3, 0.25, null]));
      let ts: string | null;
      if (r.bool(0.04)) ts = null;
      else {
        const off = r.weighted([
          [3, 5 * r.int(-4, 1)],
          [3, r.int(-25, 5)],
        ]);
        const micros = r.weighted([
          [10, 0],
          [1, -1],
          [1, 1],
          [1, 500_000],
          [1, 999],
        ]);
        ts = t(clock + off, micros);
      }
      put("ts", ts);
      rows.push(row);
      seen.push(row);
    }
    batches.push(rows);
  }
  const restartAt = nBatches >= 3 && r.bool(0.25) ? [r.int(1, nBatches - 1)] : undefined;
  // trigger once: every file in one batch. Not with a deduplication: which row of a duplicate group
  // comes first then depends on the order Spark packs the files (largest first), not on batch order.
  const once = !restartAt && !/dropDuplicates|distinct/.test(shape.join(" ")) && r.bool(0.05);

  const pyspark = `df${steps.map((s) => s.py).join("")}`;
  const arusSrc = `({ df, F${steps.some((s) => s.ts.includes("session.")) ? ", session" : ""} }) => df${steps.map((s) => s.ts).join("")}`;
  const arus = new Function(`return (${arusSrc});`)() as CaseDef["arus"];
  const def: CaseDef = {
    description: `fuzz seed ${seed}: ${shape.join(" -> ") || "stateless"}, ${outputMode}`,
    input: { schema: SCHEMA, batches },
    outputMode,
    pyspark,
    arus,
    ...(restartAt ? { restartAt } : {}),
    ...(once ? { trigger: "once" as const } : {}),
  };
  return {
    def,
    pyspark,
    arusSrc,
    shape: `${shape.join(" -> ") || "stateless"} [${outputMode}${restartAt ? `, restart@${restartAt[0]}` : ""}${once ? ", once" : ""}]`,
  };
}

/** The case as a `.case.ts` file (to rerun or minimise it by hand). */
export function caseFileText(g: Generated, caseImport: string, extra: { description?: string; notes?: string } = {}): string {
  const d = g.def;
  const inputText = (
    inp: { name?: string; schema: string; batches: InputRow[][]; watermark?: { column: string; delay: string } },
    indent: string,
  ) =>
    `{${inp.name ? `\n${indent}  name: ${q(inp.name)},` : ""}${inp.watermark ? `\n${indent}  watermark: ${JSON.stringify(inp.watermark)},` : ""}
${indent}  schema: ${q(inp.schema)},
${indent}  batches: [
${inp.batches.map((b) => `${indent}    ${JSON.stringify(b)},`).join("\n")}
${indent}  ],
${indent}}`;
  const inputs = d.inputs
    ? `inputs: [\n${(d.inputs as { name?: string; schema: string; batches: InputRow[][] }[]).map((i) => `    ${inputText(i, "    ")},`).join("\n")}\n  ],`
    : `input: ${inputText(d.input as { schema: string; batches: InputRow[][] }, "  ")},`;
  return `import { defineCase } from ${q(caseImport)};

export default defineCase({
  description: ${q(extra.description ?? d.description)},
  ${inputs}
  outputMode: ${q(d.outputMode ?? "append")},${d.confs ? `\n  confs: ${JSON.stringify(d.confs)},` : ""}${d.restartAt ? `\n  restartAt: ${JSON.stringify(d.restartAt)},` : ""}${d.trigger ? `\n  trigger: ${q(d.trigger)},` : ""}
  ${g.sql ? `sql: ${q(g.sql)},` : `pyspark: ${q(g.pyspark)},\n  arus: ${g.arusSrc},`}${extra.notes ? `\n  notes: ${q(extra.notes)},` : ""}
});
`;
}
