/**
 * The tokens of a Spark datetime pattern (see pattern.ts for the rules): the lexer, Spark's and
 * java.time's checks on letters and counts, and the month names both directions share.
 */
import { builderRefusal, type PatternRefusal } from "./pattern-refusals.js";

export type Tok = { k: "lit"; text: string } | { k: "f"; c: string; n: number } | { k: "opt"; toks: Tok[] };

/** java.time's refusal of the pattern (pattern-refusals.ts turns it into Spark's error). */
function patternError(pattern: string, detail: string): PatternRefusal {
  return builderRefusal(pattern, detail);
}

const KNOWN = "GyuDMLdQqEahKkHmsSVzvOXxZF";

export function lex(pattern: string): Tok[] {
  const stack: Tok[][] = [[]];
  const push = (t: Tok) => {
    const top = stack[stack.length - 1]!;
    const last = top[top.length - 1];
    if (t.k === "lit" && last?.k === "lit") last.text += t.text;
    else top.push(t);
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if ((c >= "A" && c <= "Z") || (c >= "a" && c <= "z")) {
      let j = i;
      while (pattern[j] === c) j++;
      push({ k: "f", c, n: j - i });
      i = j;
    } else if (c === "'") {
      let j = i + 1;
      let text = "";
      for (;;) {
        if (j >= pattern.length) throw patternError(pattern, "Pattern ends with an incomplete string literal.");
        if (pattern[j] === "'") {
          if (pattern[j + 1] === "'") {
            text += "'";
            j += 2;
            continue;
          }
          break;
        }
        text += pattern[j];
        j++;
      }
      push({ k: "lit", text: j === i + 1 ? "'" : text });
      i = j + 1;
    } else if (c === "[") {
      const opt: Tok = { k: "opt", toks: [] };
      stack[stack.length - 1]!.push(opt);
      stack.push(opt.toks);
      i++;
    } else if (c === "]") {
      if (stack.length === 1) throw patternError(pattern, "Pattern invalid as it contains ] without previous [.");
      stack.pop();
      i++;
    } else if (c === "{" || c === "}" || c === "#") {
      throw patternError(pattern, `Pattern includes reserved character: '${c}'.`);
    } else {
      push({ k: "lit", text: c });
      i++;
    }
  }
  return stack[0]!;
}

function walk(toks: Tok[], fn: (t: Tok & { k: "f" }) => void): void {
  for (const t of toks) {
    if (t.k === "f") fn(t);
    else if (t.k === "opt") walk(t.toks, fn);
  }
}

/** java.time's checks on letters and counts (Spark's own run first: pattern-refusals.ts); rewrites y → u when there is no G. */
export function validate(pattern: string, toks: Tok[]): { hasEra: boolean; parseProblem: string | null } {
  let hasEra = false;
  let parseProblem: string | null = null;
  walk(toks, (t) => {
    if (t.c === "G") hasEra = true;
  });
  walk(toks, (t) => {
    const { c, n } = t;
    if (!KNOWN.includes(c)) throw patternError(pattern, `Unknown pattern letter: ${c}`);
    if (c === "y" && n >= 7) throw patternError(pattern, "Too many pattern letters: yyyyyyy.");
    const max: Record<string, number> = { d: 2, h: 2, H: 2, k: 2, K: 2, m: 2, s: 2, D: 3, a: 1, S: 9, z: 4, X: 5, x: 5, Z: 5, F: 1 };
    if (max[c] !== undefined && n > max[c]!) throw patternError(pattern, `Too many pattern letters: ${c}`);
    if (c === "V" && n !== 2) throw patternError(pattern, "Pattern letter count must be 2: V");
    if (c === "O" && n !== 1 && n !== 4) throw patternError(pattern, "Pattern letter count must be 1 or 4: O");
    if (c === "v" && n !== 1 && n !== 4) throw patternError(pattern, "Wrong number of pattern letters: v");
    if ("EFqQ".includes(c)) parseProblem ??= c;
    if (c === "y" && !hasEra) t.c = "u";
  });
  return { hasEra, parseProblem };
}

export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
