/**
 * parse_url(url, part[, key]) and try_parse_url: a part of a URL as Java's java.net.URI splits
 * it (RFC 2396): HOST, PATH, QUERY (or one query parameter with `key`), REF, PROTOCOL, FILE,
 * AUTHORITY, USERINFO; NULL for a missing part or an unknown part name (case matters). A URL
 * Java refuses (a space, a stray `%`...) is INVALID_URL under ANSI, NULL otherwise and for try_.
 */
import { ArusError, WrongNumArgsException } from "../common/errors.js";
import { StringType } from "../types/datatypes.js";
import { mapRows } from "./kernel-util.js";
import { exactArg, register, type ScalarFunction } from "./registry.js";

interface Uri {
  scheme: string | null;
  authority: string | null;
  userInfo: string | null;
  host: string | null;
  path: string | null;
  query: string | null;
  fragment: string | null;
}

const LEGAL = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
const SPLIT = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

/** java.net.URI's components of `url`, or null when URI would throw URISyntaxException. */
export function parseUri(url: string): Uri | null {
  if (!LEGAL.test(url)) return null;
  const m = SPLIT.exec(url);
  if (!m) return null;
  const [, scheme = null, authority = null, path = "", query = null, fragment = null] = m;
  // "mailto:x@y": an opaque URI (a scheme, then no '/'): no path, host or query of its own
  if (scheme !== null && authority === null && !path.startsWith("/")) {
    return { scheme, authority: null, userInfo: null, host: null, path: null, query: null, fragment };
  }
  let userInfo: string | null = null;
  let host: string | null = null;
  if (authority !== null) {
    const at = authority.lastIndexOf("@");
    userInfo = at >= 0 ? authority.slice(0, at) : null;
    const hostPort = at >= 0 ? authority.slice(at + 1) : authority;
    host = hostPort.replace(/:\d*$/, "") || null;
  }
  return { scheme, authority, userInfo, host, path, query, fragment };
}

function part(uri: Uri, name: string, key: string | undefined): string | null {
  switch (name) {
    case "HOST":
      return uri.host;
    case "PATH":
      return uri.path;
    case "QUERY": {
      if (key === undefined) return uri.query;
      if (uri.query === null) return null;
      for (const pair of uri.query.split("&")) {
        if (pair.startsWith(`${key}=`)) return pair.slice(key.length + 1);
      }
      return null;
    }
    case "REF":
      return uri.fragment;
    case "PROTOCOL":
      return uri.scheme;
    case "FILE":
      return uri.path === null ? null : uri.query === null ? uri.path : `${uri.path}?${uri.query}`;
    case "AUTHORITY":
      return uri.authority;
    case "USERINFO":
      return uri.userInfo;
    default:
      return null;
  }
}

function parseUrl(name: string, tolerant: boolean): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args, types, call) {
      // try_parse_url builds a parse_url in Spark, which is what its errors name
      if (args.length < 2 || args.length > 3) throw new WrongNumArgsException("parse_url", "[2, 3]", args.length, true);
      const shown = call.kind === "call" ? { ...call, name: "parse_url" } : call;
      // no implicit casts: Spark's ParseUrl is ExpectsInputTypes only
      return { args: args.map((_, i) => exactArg(shown, args, types, i, StringType)), type: StringType };
    },
    kernel: (args, n, ctx) =>
      mapRows(StringType, args, n, (url, p, key) => {
        const uri = parseUri(url as string);
        if (uri === null) {
          if (tolerant || !ctx.ansi) return null;
          throw new ArusError(
            "INVALID_URL",
            `[INVALID_URL] The url is invalid: ${url as string}. Use \`try_parse_url\` to tolerate invalid URL and return NULL instead.`,
          );
        }
        return part(uri, p as string, key as string | undefined);
      }),
  };
}

register(parseUrl("parse_url", false), parseUrl("try_parse_url", true));
