/**
 * Functions that describe the session rather than the data: current_database / current_schema
 * ("default"), current_catalog ("spark_catalog"), current_user / user / session_user (the
 * operating-system user, as Spark's local mode) and version (arus' version string, which
 * necessarily differs from Spark's "<version> <commit>").
 */
import { userInfo } from "node:os";
import { constantVector } from "../columnar/vector.js";
import { StringType } from "../types/datatypes.js";
import { checkArity, register, registerAlias, type ScalarFunction } from "./registry.js";

export const ARUS_VERSION = "4.0.0-arus";

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? "unknown";
  }
}

function constant(name: string, value: () => string): ScalarFunction {
  return {
    kind: "scalar",
    name,
    resolve(args) {
      checkArity(name, args, 0);
      return { args, type: StringType };
    },
    kernel: (_args, n) => constantVector(StringType, value(), n),
    foldable: false,
  };
}

register(
  constant("current_schema", () => "default"),
  constant("current_catalog", () => "spark_catalog"),
  constant("current_user", osUser),
  constant("version", () => ARUS_VERSION),
);
registerAlias("current_database", "current_schema");
registerAlias("user", "current_user");
registerAlias("session_user", "current_user");
