/**
 * Spark's number format strings (to_number, try_to_number, to_char / to_varchar): `9` and `0`
 * digits (a run starting with `0` before the point must be filled exactly), `.` / `D` the
 * point, `,` / `G` grouping, `$`, `S` (sign), `MI` (trailing minus), `PR` (negative in angle
 * brackets). A format is compiled once into tokens, checked in Spark's order of rules (the
 * INVALID_FORMAT sub-classes), then matched against text (parse) or filled from a decimal's
 * digits (format). Written from Spark 4's documented behaviour and its outputs.
 */
import { AnalysisException, ArusError } from "../common/errors.js";

type Token =
  | { readonly kind: "group"; readonly items: readonly GroupItem[] }
  | { readonly kind: "point" | "dollar" | "sign" | "minus" | "open" | "close" }
  | { readonly kind: "bad"; readonly char: string };
/** A digit run (`exact`: must be filled, as a leading `0` run) or a grouping separator. */
type GroupItem = { readonly digits: number; readonly exact: boolean } | { readonly digits: 0; readonly separator: true };

const SEP: GroupItem = { digits: 0, separator: true };
const isSep = (g: GroupItem) => "separator" in g;

/** What each token is called in Spark's messages. */
function tokenText(t: Token): string {
  switch (t.kind) {
    case "group":
      return "digit sequence";
    case "point":
      return ". or D";
    case "dollar":
      return "$";
    case "sign":
      return "S";
    case "minus":
      return "MI";
    case "open":
    case "close":
      return "PR";
    case "bad":
      return `character '${t.char}''`;
  }
}

function tokenize(format: string): Token[] {
  const raw: (Token | GroupItem)[] = [];
  let afterPoint = false;
  for (let i = 0; i < format.length; ) {
    const c = format[i]!;
    if (c === "0" || c === "9") {
      const from = i;
      while (i < format.length && (format[i] === "0" || format[i] === "9")) i++;
      raw.push({ digits: i - from, exact: c === "0" && !afterPoint });
      continue;
    }
    i++;
    if (c === "." || c === "D") {
      raw.push({ kind: "point" });
      afterPoint = true;
    } else if (c === "," || c === "G") raw.push(SEP);
    else if (c === "$") raw.push({ kind: "dollar" });
    else if (c === "S") raw.push({ kind: "sign" });
    else if (c === "M" && format[i] === "I") {
      raw.push({ kind: "minus" });
      i++;
    } else if (c === "P" && format[i] === "R") {
      raw.unshift({ kind: "open" });
      raw.push({ kind: "close" });
      i++;
    } else raw.push({ kind: "bad", char: c });
  }
  // consecutive digit runs and separators make one group
  const tokens: Token[] = [];
  let group: GroupItem[] = [];
  for (const t of raw) {
    if (!("kind" in t)) {
      group.push(t);
      continue;
    }
    if (group.length > 0) tokens.push({ kind: "group", items: group });
    group = [];
    tokens.push(t);
  }
  if (group.length > 0) tokens.push({ kind: "group", items: group });
  return tokens;
}

const digitsOf = (t: Token) => (t.kind === "group" ? t.items.reduce((n, g) => n + g.digits, 0) : 0);

/** The structure every format must follow: [PR] [MI|S] [$] [digits] [point] [digits] [$] [PR|MI|S]. */
const SLOTS: readonly (readonly Token["kind"][])[] = [
  ["open"],
  ["minus", "sign"],
  ["dollar"],
  ["group"],
  ["point"],
  ["group"],
  ["dollar"],
  ["minus", "sign", "close"],
];

export class NumberFormat {
  readonly tokens: readonly Token[];
  readonly precision: number;
  readonly scale: number;

  constructor(readonly text: string) {
    this.tokens = tokenize(text);
    this.precision = this.tokens.reduce((n, t) => n + digitsOf(t), 0);
    const point = this.tokens.findIndex((t) => t.kind === "point");
    this.scale = point < 0 ? 0 : this.tokens.slice(point).reduce((n, t) => n + digitsOf(t), 0);
  }

  /** Spark's checks of the format, in its order; throws INVALID_FORMAT.<reason>. */
  check(): void {
    const fail = (reason: string, message: string) => {
      throw new AnalysisException(
        `INVALID_FORMAT.${reason}`,
        `[INVALID_FORMAT.${reason}] The format is invalid: '${this.text}'. ${message}`,
      );
    };
    const t = this.tokens;
    const index = (kind: Token["kind"]) => t.findIndex((x) => x.kind === kind);
    const point = index("point");
    if (this.text === "") fail("EMPTY", "The number format string cannot be empty.");
    if (index("group") < 0) fail("WRONG_NUM_DIGIT", "The format string requires at least one number digit.");
    if (index("group") < index("dollar"))
      fail("CUR_MUST_BEFORE_DIGIT", "Currency characters must appear before digits in the number format.");
    if (point >= 0 && point < index("dollar"))
      fail("CUR_MUST_BEFORE_DEC", "Currency characters must appear before any decimal point in the number format.");
    const groups = t.flatMap((x, i) => (x.kind === "group" ? [{ items: x.items, before: point < 0 || i < point }] : []));
    const loneSeparator = (items: readonly GroupItem[]) =>
      items.some((g, j) => isSep(g) && (j === 0 || j === items.length - 1 || isSep(items[j - 1]!) || isSep(items[j + 1]!)));
    if (groups.some((g) => g.before && loneSeparator(g.items)))
      fail("CONT_THOUSANDS_SEPS", "Thousands separators (, or G) must have digits in between them in the number format.");
    if (groups.some((g) => !g.before && g.items.some(isSep)))
      fail("THOUSANDS_SEPS_MUST_BEFORE_DEC", "Thousands separators (, or G) may not appear after the decimal point in the number format.");
    for (const kind of ["point", "sign", "minus", "dollar", "close"] as const) {
      const one = t.find((x) => x.kind === kind)!;
      if (t.filter((x) => x.kind === kind).length > 1)
        fail("WRONG_NUM_TOKEN", `At most one ${tokenText(one)} is allowed in the number format.`);
    }
    let at = 0;
    for (const slot of SLOTS) if (at < t.length && slot.includes(t[at]!.kind)) at++;
    if (at < t.length) {
      fail(
        "UNEXPECTED_TOKEN",
        `Found the unexpected ${tokenText(t[at]!)} in the format string; the structure of the format string must match: \`[MI|S]\` \`[$]\` \`[0|9|G|,]*\` \`[.|D]\` \`[0|9]*\` \`[$]\` \`[PR|MI|S]\`.`,
      );
    }
  }

  /** The unscaled DECIMAL(precision, scale) value `input` spells in this format, or null when it does not match. */
  parse(input: string): bigint | null {
    let at = 0;
    let afterPoint = false;
    let negative = false;
    let opened = false;
    let closed = false;
    let before = "";
    let after = "";
    for (const t of this.tokens) {
      const c = at < input.length ? input[at]! : null;
      switch (t.kind) {
        case "group": {
          // digits, separators and spaces; the groups' sizes compared from the right
          const sizes = [0];
          for (; at < input.length; at++) {
            const ch = input[at]!;
            if (ch >= "0" && ch <= "9") {
              sizes[sizes.length - 1]!++;
              if (afterPoint) after += ch;
              else before += ch;
            } else if (ch === ",") sizes.push(0);
            else if (!/\s/.test(ch)) break;
          }
          const runs = t.items.filter((g) => !isSep(g)) as { digits: number; exact: boolean }[];
          if (sizes.length > runs.length) return null;
          for (let i = 0; i < runs.length; i++) {
            const run = runs[runs.length - 1 - i]!;
            const got = sizes[sizes.length - 1 - i] ?? 0;
            if (run.exact ? got !== run.digits : got > run.digits) return null;
          }
          break;
        }
        case "point":
          if (c === ".") {
            afterPoint = true;
            at++;
          }
          break;
        case "dollar":
          if (c !== null) {
            if (c !== "$") return null;
            at++;
          }
          break;
        case "sign":
        case "minus":
          if (c === "-" || (c === "+" && t.kind === "sign")) {
            if (c === "-") negative = !negative;
            at++;
          }
          break;
        case "open":
          if (c === "<") {
            if (opened) return null;
            opened = true;
            at++;
          }
          break;
        case "close":
          if (c === ">") {
            if (!opened) return null;
            closed = true;
            negative = !negative;
            at++;
          }
          break;
        case "bad":
          return null;
      }
    }
    if (at < input.length || opened !== closed || (before === "" && after === "")) return null;
    const unscaled = BigInt(`${before}${after.padEnd(this.scale, "0")}` || "0");
    return negative ? -unscaled : unscaled;
  }

  /** `plain`, a decimal number's digits without exponent (`-1234.50`), written in this format. */
  format(plain: string): string {
    const negative = plain.startsWith("-");
    const [intText = "", fracText = ""] = plain.replace(/^-/, "").split(".");
    let intDigits = intText.replace(/^0+/, "");
    let fracDigits = fracText.replace(/0+$/, "");
    let room = 0;
    let roomAfter = 0;
    let seenPoint = false;
    for (const t of this.tokens) {
      if (t.kind === "point") seenPoint = true;
      else if (seenPoint) roomAfter += digitsOf(t);
      else room += digitsOf(t);
    }
    if (intDigits.length > room || fracDigits.length > roomAfter) {
      // more digits than the format holds: every digit position shows '#'
      intDigits = "#".repeat(room);
      fracDigits = "#".repeat(roomAfter);
    }
    const intPadded = intDigits.padStart(room, " ");
    const fracPadded = fracDigits.padEnd(roomAfter, "0");
    const out: string[] = [];
    let i = 0;
    let f = 0;
    seenPoint = false;
    for (const t of this.tokens) {
      switch (t.kind) {
        case "group":
          for (const g of t.items) {
            if (isSep(g)) {
              if (/[0-9]/.test(out.at(-1) ?? "")) out.push(",");
              else pushSpace(out);
              continue;
            }
            for (let k = 0; k < g.digits; k++) {
              if (seenPoint) out.push(fracPadded[f++]!);
              else {
                const ch = intPadded[i++]!;
                if (ch !== " ") out.push(ch);
                else if ((g as { exact: boolean }).exact) out.push("0");
                else pushSpace(out);
              }
            }
          }
          break;
        case "point":
          if (out.at(-1) === " ") out[out.length - 1] = "0";
          out.push(".");
          seenPoint = true;
          break;
        case "dollar":
          out.push("$");
          break;
        case "sign":
          dropLonePoint(out);
          pushSign(out, negative ? "-" : "+");
          break;
        case "minus":
          if (negative) {
            dropLonePoint(out);
            pushSign(out, "-");
          } else out.push(" ");
          break;
        case "open":
          if (negative) out.push("<");
          break;
        case "close":
          dropLonePoint(out);
          if (negative) pushSign(out, ">");
          else out.push(" ", " ");
          break;
        case "bad":
          break;
      }
    }
    dropLonePoint(out);
    const text = out.join("");
    return text === "" || text === "+" || text === "-" ? "0" : text;
  }
}

/** A space, moved left of a sign or `<` just written (the sign stays next to the digits). */
function pushSpace(out: string[]): void {
  out.push(" ");
  for (let i = out.length - 1; i >= 1 && (out[i - 1] === "+" || out[i - 1] === "-" || out[i - 1] === "<") && out[i] === " "; i--) {
    out[i] = out[i - 1]!;
    out[i - 1] = " ";
  }
}

/** `c`, moved left past the spaces just before it. */
function pushSign(out: string[], c: string): void {
  out.push(c);
  for (let i = out.length - 1; i >= 1 && out[i - 1] === " " && out[i] === c; i--) {
    out[i] = " ";
    out[i - 1] = c;
  }
}

/** A point with no digit after it becomes a space. */
function dropLonePoint(out: string[]): void {
  const p = out.indexOf(".");
  if (p >= 0 && (p === out.length - 1 || out[p + 1] === " ")) out[p] = " ";
}

/** to_number's error for text that does not match its format. */
export function mismatchError(input: string, format: string): ArusError {
  return new ArusError(
    "INVALID_FORMAT.MISMATCH_INPUT",
    `[INVALID_FORMAT.MISMATCH_INPUT] The format is invalid: ${format}. The input "STRING" ${input} does not match the format.`,
  );
}
