/**
 * Compact JSON text laid out as Jackson's DefaultPrettyPrinter does (Spark's `pretty` option of
 * to_json): an object's fields one per line, indented two spaces per enclosing object,
 * `"key" : value`; arrays on one line, `[ 1, 2 ]`; empty ones `{ }` and `[ ]`. Strings are copied
 * as they are; only the structure around them changes.
 */

export function prettyJson(compact: string): string {
  let out = "";
  let depth = 0; // enclosing objects
  const stack: ("{" | "[")[] = [];
  const indent = (): string => `\n${"  ".repeat(depth)}`;
  for (let i = 0; i < compact.length; i++) {
    const c = compact[i]!;
    if (c === '"') {
      const start = i;
      for (i++; compact[i] !== '"'; i++) if (compact[i] === "\\") i++;
      out += compact.slice(start, i + 1);
    } else if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      if (compact[i + 1] === close) {
        out += `${c} ${close}`;
        i++;
      } else if (c === "{") {
        stack.push(c);
        depth++;
        out += `{${indent()}`;
      } else {
        stack.push(c);
        out += "[ ";
      }
    } else if (c === "}") {
      stack.pop();
      depth--;
      out += `${indent()}}`;
    } else if (c === "]") {
      stack.pop();
      out += " ]";
    } else if (c === ":") out += " : ";
    else if (c === ",") out += stack[stack.length - 1] === "{" ? `,${indent()}` : ", ";
    else out += c;
  }
  return out;
}
