/**
 * Expressions printed as Spark prints them: the auto-generated column names
 * (`(a + 1)`, `sum(x)`, `count(1)`, `CAST(v AS TIMESTAMP)`) and the text inside error messages.
 */

import { javaDoubleToString } from "../common/show.js";
import { type DataType, sqlTypeName } from "../types/datatypes.js";
import { formatUnscaled } from "../types/decimal.js";
import { formatDayTimeInterval } from "../types/interval-text.js";
import { assertNever, type Call, type CaseWhen, type Expr, type WindowExpr, type WindowFrame } from "./expressions.js";
import { stringCallSql } from "./string-call-sql.js";
import { withinGroupSql } from "./within-group.js";

const INFIX = new Set(["+", "-", "*", "/", "%", "div", "&", "|", "^", "=", "<=>", "!=", "<", "<=", ">", ">=", "and", "or"]);
/** Infix operators Spark prints in lower case (`(a div b)`; AND and OR in capitals). */
const LOWER_INFIX = new Set(["div"]);

/** Render an internal literal value (timestamps already in micros) as Spark's toString would. */
function literalText(value: unknown, kind: string, type?: DataType): string {
  if (value === null || value === undefined) return "NULL";
  if (type?.kind === "decimal") return formatUnscaled(value as number | bigint, type.scale);
  if (kind === "string") return String(value);
  if (kind === "boolean") return value ? "true" : "false";
  if (kind === "double") return javaDoubleToString(value as number);
  // a BIGINT prints bare, as in Spark's column names (its pretty SQL writes numbers as their toString)
  if (kind === "bigint") return String(value);
  if (kind === "interval") return formatDayTimeInterval(value as number, type);
  if (kind === "timestamp") return `TIMESTAMP_MICROS ${value}`;
  if (kind === "binary" && value instanceof Uint8Array)
    return `X'${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex").toUpperCase()}'`;
  return String(value);
}

/**
 * `DATE '2020-01-02'`, `TIMESTAMP '2020-01-01 10:11:12.5'`: a typed literal as Spark prints it,
 * normalized; null (print the cast) for text with a time zone, whose wall time depends on the
 * session's.
 */
function typedLiteralText(child: Expr, to: DataType): string | null {
  if (child.kind !== "literal" || typeof child.value !== "string") return null;
  const two = (x: string | undefined) => (x ?? "0").padStart(2, "0");
  if (to.kind === "date") {
    const d = /^\s*(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:[T ].*)?\s*$/.exec(child.value);
    return d ? `DATE '${d[1]}-${two(d[2] ?? "1")}-${two(d[3] ?? "1")}'` : null;
  }
  const t = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2})(?::(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,9}))?)?)?)?\s*$/.exec(child.value);
  if (!t) return null;
  const frac = (t[7] ?? "").slice(0, 6).replace(/0+$/, "");
  return `TIMESTAMP '${t[1]}-${two(t[2])}-${two(t[3])} ${two(t[4])}:${two(t[5])}:${two(t[6])}${frac ? `.${frac}` : ""}'`;
}

export function exprToSql(e: Expr): string {
  switch (e.kind) {
    case "column":
      return e.nameParts[e.nameParts.length - 1]!.length && e.nameParts.length === 1 ? e.nameParts[0]! : e.nameParts.join(".");
    case "attribute":
      return e.name;
    case "lambdaVar":
      // Spark names a lambda's variables so, in SQL and the DataFrame API alike
      return "namedlambdavariable()";
    case "literal":
      return literalText(e.value, e.type.kind, e.type);
    case "alias":
      return e.name;
    case "multiAlias":
      return `${exprToSql(e.child)} AS (${e.names.join(", ")})`;
    case "star":
      return e.qualifier ? `${e.qualifier}.*` : "*";
    case "cast":
      if (e.implicit) return exprToSql(e.child);
      if (e.typedLiteral) {
        const text = typedLiteralText(e.child, e.to);
        if (text !== null) return text;
      }
      // Spark's Cast.sql: a cast to an ARRAY, MAP or STRUCT prints as its child
      if (e.to.kind === "array" || e.to.kind === "map" || e.to.kind === "struct") return exprToSql(e.child);
      return `${e.tryCast ? "TRY_CAST" : "CAST"}(${exprToSql(e.child)} AS ${sqlTypeName(e.to)})`;
    case "sortOrder":
      return `${exprToSql(e.child)} ${e.ascending ? "ASC" : "DESC"} NULLS ${e.nullsFirst ? "FIRST" : "LAST"}`;
    case "caseWhen": {
      if (e.filterMask) return exprToSql(e.branches[0]![1]);
      if (e.fromIf && e.otherwise)
        return `(IF(${exprToSql(e.branches[0]![0])}, ${exprToSql(e.branches[0]![1])}, ${exprToSql(e.otherwise)}))`;
      const parts = e.branches.map(([c, v]) => ` WHEN ${exprToSql(c)} THEN ${exprToSql(v)}`).join("");
      return `CASE${parts}${e.otherwise ? ` ELSE ${exprToSql(e.otherwise)}` : ""} END`;
    }
    case "call":
      if (e.aggFilter) return filteredCallSql(e);
      if (e.withinGroup !== undefined) return withinGroupSql(e, exprToSql);
      if (e.byName) return `${e.name}(${e.args.map(exprToSql).join(", ")})`;
      if (e.between) return betweenSql(e.args);
      if (e.quantifiedLike) return `${e.quantifiedLike.name}(${exprToSql(e.quantifiedLike.value)})`;
      if (e.label !== undefined) return `${e.label}(${e.args.map(exprToSql).join(", ")})`;
      // a subquery shows the outer columns its correlation names: exists(k), listquery(k)
      if (e.name === "in_subquery") return `(${exprToSql(e.args[0]!)} IN (listquery(${(e.outerNames ?? []).join(", ")})))`;
      if (e.name === "exists_subquery") return `exists(${(e.outerNames ?? []).join(", ")})`;
      // struct(a AS p, m): an aliased field prints with its expression, as Spark's CreateNamedStruct
      if (e.name === "struct")
        return `struct(${e.args.map((a) => (a.kind === "alias" ? `${exprToSql(a.child)} AS ${a.name}` : exprToSql(a))).join(", ")})`;
      return callToSql(e.name, e.args, e.distinct, e.bare === true);
    case "windowExpr":
      return `${exprToSql(e.fn)} OVER ${windowSpecSql(e)}`;
    default:
      return assertNever(e);
  }
}

/** `sum(v) FILTER (WHERE (v > 1))`: the call as written, then the condition its arguments are masked by. */
function filteredCallSql(e: Call): string {
  const mask = e.args.map(maskOf).find((m) => m !== null) ?? null;
  const base = exprToSql({ ...e, aggFilter: false });
  return mask ? `${base} FILTER (WHERE ${exprToSql(mask.branches[0]![0])})` : base;
}
/** The FILTER mask of an argument, under the casts type coercion put around it. */
function maskOf(a: Expr): CaseWhen | null {
  let x = a;
  while (x.kind === "cast" && x.implicit) x = x.child;
  return x.kind === "caseWhen" && x.filterMask ? x : null;
}

/** `(PARTITION BY k ORDER BY v ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`, as Spark names it. */
export function windowSpecSql(e: Pick<WindowExpr, "partitionBy" | "orderBy" | "frame">): string {
  const parts: string[] = [];
  if (e.partitionBy.length) parts.push(`PARTITION BY ${e.partitionBy.map(exprToSql).join(", ")}`);
  if (e.orderBy.length) parts.push(`ORDER BY ${e.orderBy.map(exprToSql).join(", ")}`);
  if (e.frame) parts.push(frameSql(e.frame));
  return `(${parts.join(" ")})`;
}

const UNIT_MICROS = { DAY: 86_400_000_000, HOUR: 3_600_000_000, MINUTE: 60_000_000, SECOND: 1_000_000 } as const;

/** A day-time interval in one unit as Spark prints it: `INTERVAL '7' DAY`, `INTERVAL '05' MINUTE`, `INTERVAL '01.5' SECOND`. */
function intervalSql(micros: number, written?: keyof typeof UNIT_MICROS): string {
  const unit = written ?? (["DAY", "HOUR", "MINUTE", "SECOND"] as const).find((u) => micros % UNIT_MICROS[u] === 0) ?? "SECOND";
  const whole = Math.trunc(micros / UNIT_MICROS[unit]);
  const rest = micros - whole * UNIT_MICROS[unit];
  let text = unit === "DAY" ? String(whole) : String(whole).padStart(2, "0");
  if (rest !== 0) text += `.${String(rest).padStart(6, "0").replace(/0+$/, "")}`;
  return `INTERVAL '${text}' ${unit}`;
}

export function frameSql(f: WindowFrame): string {
  const bound = (v: number | null, lower: boolean): string => {
    if (v === null) return lower ? "UNBOUNDED PRECEDING" : "UNBOUNDED FOLLOWING";
    if (v === 0) return "CURRENT ROW";
    if (f.intervalBounds) return `${intervalSql(Math.abs(v), f.intervalUnit)} ${v < 0 ? "PRECEDING" : "FOLLOWING"}`;
    if (f.numericBounds || v > 0) return `${v} FOLLOWING`;
    return `${-v} PRECEDING`;
  };
  return `${f.type.toUpperCase()} BETWEEN ${bound(f.lower, true)} AND ${bound(f.upper, false)}`;
}

/** Functions Spark names in capitals (its UnaryMathExpression and friends): `SIN(x)`, `ATAN2(y, x)`. */
const CAPITALIZED = new Set(
  "sin cos tan cot sec csc asin acos atan sinh cosh tanh asinh acosh atanh atan2 degrees radians pi e log2 log1p expm1 cbrt hypot log10 regexp_like regexp exp power sqrt".split(
    " ",
  ),
);

/** Spark's `update_fields(s, WithField(value), dropfield())`; analysis moves the operations into a plan literal. */
function updateFieldsSql(args: readonly Expr[]): string {
  const parts = [exprToSql(args[0]!)];
  const spec = args[1];
  if (spec?.kind === "literal" && typeof spec.value === "string") {
    const { ops } = JSON.parse(spec.value) as { ops: string[] };
    let v = 2;
    for (const op of ops) parts.push(op === "withfield" ? `WithField(${exprToSql(args[v++]!)})` : "dropfield()");
  } else {
    for (const e of args.slice(1)) {
      const c = e as Expr & { kind: "call" };
      parts.push(c.name === "withfield" ? `WithField(${exprToSql(c.args[1]!)})` : "dropfield()");
    }
  }
  return `update_fields(${parts.join(", ")})`;
}

/** `between(x, l, u)` from the `(x >= l) AND (x <= u)` it was parsed to. */
function betweenSql(args: readonly Expr[]): string {
  const [ge, le] = args as [Expr & { kind: "call" }, Expr & { kind: "call" }];
  return `between(${exprToSql(ge.args[0]!)}, ${exprToSql(ge.args[1]!)}, ${exprToSql(le.args[1]!)})`;
}

function callToSql(name: string, args: readonly Expr[], distinct: boolean, bare = false): string {
  const a = args.map(exprToSql);
  const stringCall = stringCallSql(name, a);
  if (stringCall !== undefined) return stringCall;
  // Spark parses a != b (and a <> b) as NOT (a = b)
  if (name === "!=" && args.length === 2) return `(NOT (${a[0]} = ${a[1]}))`;
  if (INFIX.has(name) && args.length === 2) {
    const op = `${a[0]} ${LOWER_INFIX.has(name) ? name : name.toUpperCase()} ${a[1]}`;
    return bare ? op : `(${op})`;
  }
  switch (name) {
    case "not":
      return `(NOT ${a[0]})`;
    case "negative":
      return `(- ${a[0]})`;
    case "isnull":
      return `(${a[0]} IS NULL)`;
    case "isnotnull":
      return `(${a[0]} IS NOT NULL)`;
    case "in":
      return `(${a[0]} IN (${a.slice(1).join(", ")}))`;
    case "like":
      return args.length === 3 && args[2]!.kind === "literal" ? `${a[0]} LIKE ${a[1]} ESCAPE '${args[2].value}'` : `${a[0]} LIKE ${a[1]}`;
    case "ilike": // named without its escape, as Spark's ILike
      return `ilike(${a[0]}, ${a[1]})`;
    case "rlike":
      return `RLIKE(${a[0]}, ${a[1]})`;
    case "getfield":
      // Spark's pretty name of GetStructField: the struct, then the field (`s.a`); a column path
      // standing alone as an output column is named by its last part (analyzer.ts `named`)
      return `${a[0]}.${a[1]}`;
    case "getitem":
      return `${a[0]}[${a[1]}]`;
    case "add_ym_interval": {
      // Spark's name for `d + INTERVAL 1 MONTH` (the parser folded the interval into a month count)
      const m = args[1]!.kind === "literal" ? Number(args[1]!.value) : Number.NaN;
      if (Number.isNaN(m)) break;
      return `${a[0]} ${m < 0 ? "-" : "+"} INTERVAL '${Math.abs(m)}' MONTH`;
    }
    case "sequence_months": {
      // sequence(start, stop, INTERVAL n MONTH): the parser folded the interval into a month count
      const m = args[2]!.kind === "literal" ? Number(args[2]!.value) : Number.NaN;
      if (Number.isNaN(m)) break;
      return `sequence(${a[0]}, ${a[1]}, INTERVAL '${m}' MONTH)`;
    }
    case "scalar_subquery":
      return "scalarsubquery()";
    case "count":
      if (args.length === 1 && args[0]!.kind === "star") return "count(1)";
      break;
    case "window":
    case "session_window":
    case "window_time":
      return name;
    case "uuid": // uuid(seed) is named without its seed, as in Spark
      return "uuid()";
    case "current_timestamp":
    case "current_watermark":
    case "current_date":
      return `${name}()`;
    case "signum":
      return `SIGNUM(${a.join(", ")})`;
    // Spark's Ceil / Floor print in capitals; ceil(x, scale) is another expression (RoundCeil)
    case "ceil":
    case "floor":
      return args.length === 1 ? `${name.toUpperCase()}(${a[0]})` : `${name}(${a.join(", ")})`;
    // round(x) is round(x, 0) in Spark
    case "round":
    case "bround":
      return args.length === 1 ? `${name}(${a[0]}, 0)` : `${name}(${a.join(", ")})`;
    case "log": // Spark's one-argument log is log(e(), x)
      return `LOG(${args.length === 1 ? "E(), " : ""}${a.join(", ")})`;
    // Spark names the field bare: extract(YEAR FROM ts), datepart(doy FROM ts), date_part(Year, ts).
    case "extract":
    case "datepart":
      if (args[0]?.kind === "literal") return `${name}(${String(args[0].value)} FROM ${a[1]})`;
      break;
    case "date_part":
      if (args[0]?.kind === "literal") return `${name}(${String(args[0].value)}, ${a[1]})`;
      break;
    case "arrays_zip": {
      // Analysis wraps the arrays in one named_struct (functions/array-shape.ts); Spark shows the arrays.
      const inner = args[0];
      if (args.length === 1 && inner?.kind === "call" && inner.name === "named_struct") {
        return `arrays_zip(${inner.args
          .filter((_, i) => i % 2 === 1)
          .map(exprToSql)
          .join(", ")})`;
      }
      break;
    }
    case "percentile": // Spark shows the default frequency
      if (args.length === 2) return `percentile(${distinct ? "DISTINCT " : ""}${a.join(", ")}, 1)`;
      break;
    case "overlay": // Spark shows the default length
      if (args.length === 3) return `overlay(${a.join(", ")}, -1)`;
      break;
    case "any_value":
      if (args.length === 2 && args[1]!.kind === "literal") return `${name}(${a[0]})`;
      break;
    case "from_json": // the schema and options are not in the name
    case "from_csv":
      return `${name}(${a[0]})`;
    case "make_dt_interval": // the parts left out shown as their defaults
      return `${name}(${[...a, ...["0", "0", "0", "0.000000"].slice(a.length)].join(", ")})`;
    case "update_fields": // Column.withField / dropFields (functions/update-fields.ts), before or after analysis
      return updateFieldsSql(args);
    case "to_varchar": // another name of to_char, shown as to_char
      return `to_char(${a.join(", ")})`;
    case "array_agg": // SQL's array_agg(x) is collect_list(x) by name too
      return `collect_list(${a.join(", ")})`;
    case "regexp_replace": // the default position
      if (args.length === 3) return `${name}(${a.join(", ")}, 1)`;
      break;
    case "substr": // the default length
    case "substring":
      if (args.length === 2) return `${name}(${a.join(", ")}, 2147483647)`;
      break;
    case "from_unixtime": // the default format
    case "unix_timestamp":
    case "to_unix_timestamp":
      if (args.length === 0) return `${name}(current_timestamp(), yyyy-MM-dd HH:mm:ss)`;
      if (args.length === 1) return `${name}(${a[0]}, yyyy-MM-dd HH:mm:ss)`;
      break;
    // Spark shows these under another name or with their default arguments filled in.
    case "~":
      return `~${a[0]}`;
    case "positive":
      return `(+ ${a[0]})`;
    case "spark_partition_id":
      return "SPARK_PARTITION_ID()";
    case "percentile_approx": // Spark shows the default accuracy
    case "approx_percentile":
      if (args.length === 2) return `${name}(${a.join(", ")}, 10000)`;
      break;
    case "listagg": // Spark shows the default (no) delimiter
    case "string_agg":
      if (args.length === 1) return `${name}(${a[0]}, NULL)`;
      break;
    case "hmac": // Spark shows the default algorithm
      if (args.length === 2) return `hmac(${a.join(", ")}, SHA-256)`;
      break;
    case "regexp_instr": // ... and the default group index
      if (args.length === 2) return `regexp_instr(${a.join(", ")}, 0)`;
      break;
    case "sentences": // ... and the default language and country
      return `sentences(${[...a, "", ""].slice(0, Math.max(3, a.length)).join(", ")})`;
    case "mode": // Spark's name for the deterministic form is its WITHIN GROUP spelling
      if (args.length === 2 && args[1]!.kind === "literal") {
        const deterministic = args[1]!.value === true || args[1]!.value === 1;
        return deterministic ? `mode() WITHIN GROUP (ORDER BY ${a[0]} DESC)` : `mode(${a[0]})`;
      }
      break;
    case "shuffle": // Spark hides the seed
      return `shuffle(${a[0]})`;
    case "random":
      return `rand(${a.join(", ")})`;
    case "raise_error":
      return args.length === 1 ? `raise_error(USER_RAISED_EXCEPTION, map(errorMessage, ${a[0]}))` : `raise_error(${a.join(", ")})`;
    case "assert_true":
      return args.length === 1 ? `assert_true(${a[0]}, '${a[0]}' is not true!)` : `assert_true(${a.join(", ")})`;
    case "current_database":
      return "current_schema()";
    case "curdate":
      return "current_date()";
    case "dateadd":
      return `date_add(${a.join(", ")})`;
    case "mask":
      return `mask(${[...a, ..."X x n NULL".split(" ").slice(a.length - 1)].join(", ")})`;
    case "str_to_map":
      return `str_to_map(${[...a, ...[",", ":"].slice(a.length - 1)].join(", ")})`;
    // Spark names first(x, true) and nth_value(x, n, true) without their ignoreNulls flag.
    case "first":
    case "last":
    case "first_value":
    case "last_value":
      if (args.length === 2 && args[1]!.kind === "literal") return `${name}(${a[0]})`;
      break;
    case "nth_value":
      if (args.length === 3) {
        const ignore = args[2]!.kind === "literal" && (args[2]!.value === true || args[2]!.value === 1);
        return `nth_value(${a[0]}, ${a[1]})${ignore ? " ignore nulls" : ""}`;
      }
      break;
    case "lag":
    case "lead":
      if (args.length === 4) return `${name}(${a.slice(0, 3).join(", ")})`;
      break;
    case "__grouping_bit":
      return `grouping(${a[2]})`;
    case "__grouping_id":
      return `grouping_id(${a.slice(1).join(", ")})`;
    // Spark's RankLike prints its name in capitals.
    case "rank":
    case "dense_rank":
    case "percent_rank":
      return `${name.toUpperCase()}()`;
    case "row_number":
    case "cume_dist":
    case "grouping_id":
      return `${name}(${a.join(", ")})`;
  }
  if (CAPITALIZED.has(name)) return `${name.toUpperCase()}(${a.join(", ")})`;
  return `${name}(${distinct ? "DISTINCT " : ""}${a.join(", ")})`;
}
