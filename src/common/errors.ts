/**
 * Typed errors. Messages follow Spark's where Spark has one, so users can search for them.
 */

/** Base class: every error arus raises on purpose is an ArusError. */
export class ArusError extends Error {
  /** Spark-style error class, e.g. `UNRESOLVED_COLUMN.WITH_SUGGESTION`. */
  readonly errorClass: string;
  constructor(errorClass: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.errorClass = errorClass;
  }
}

/** Query analysis failed (unknown column, bad types, unsupported streaming shape). */
export class AnalysisException extends ArusError {}

/**
 * Spark's WRONG_NUM_ARGS.WITHOUT_SUGGESTION, with the pointer to the functions' documentation
 * its message ends with; `expected` as Spark writes it: "2", "[2, 3]", "> 0" (at least one).
 * Its parts are kept so that a call by another name (`substr`, `mean`) can be named as written
 * (`renamed`): Spark names the function as it was called.
 */
export class WrongNumArgsException extends AnalysisException {
  constructor(
    readonly functionName: string,
    readonly expected: string,
    readonly actual: number,
    /** The name is the one Spark's message gives whatever the call's (try_parse_url's is parse_url's). */
    readonly nameIsSparks = false,
  ) {
    super(
      "WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
      `[WRONG_NUM_ARGS.WITHOUT_SUGGESTION] The \`${functionName}\` requires ${expected} parameters but the actual number is ${actual}. ` +
        "Please, refer to 'https://spark.apache.org/docs/latest/sql-ref-functions.html' for a fix.",
    );
    this.name = "AnalysisException";
  }

  /** The same error for the function called `name`. */
  renamed(name: string): WrongNumArgsException {
    return new WrongNumArgsException(name, this.expected, this.actual);
  }
}

export function arityError(name: string, expected: string, got: number): WrongNumArgsException {
  return new WrongNumArgsException(name, expected, got);
}

/** SQL or DDL text could not be parsed. */
export class ParseException extends ArusError {
  constructor(
    message: string,
    readonly text: string,
    readonly position: number,
  ) {
    // The class the message names (`[INVALID_NUMERIC_LITERAL_RANGE] ...`), as Spark's condition
    const named = /^\[([A-Z_][A-Z0-9_.]*)\]/.exec(message)?.[1];
    super(named ?? "PARSE_SYNTAX_ERROR", `${message}(line 1, pos ${position})\n\n== SQL ==\n${text}\n${"-".repeat(position)}^^^\n`);
  }
}

/** An option, argument or configuration value is invalid. */
export class IllegalArgumentException extends ArusError {
  constructor(message: string, errorClass = "ILLEGAL_ARGUMENT") {
    super(errorClass, message);
  }
}

/** Malformed input data (FAILFAST read mode, unparsable files). */
export class MalformedInputException extends ArusError {
  constructor(
    message: string,
    readonly file?: string,
    readonly line?: number,
  ) {
    super("MALFORMED_RECORD_IN_PARSING", message);
  }
}

/** A streaming query failed; `cause` holds the original error. */
export class StreamingQueryException extends ArusError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("STREAM_FAILED", message, options);
  }
}

export function analysisError(message: string, errorClass = "ANALYSIS_ERROR"): AnalysisException {
  return new AnalysisException(errorClass, message);
}

/**
 * A file-system error with the path it concerns in its message (node's ENOSPC, EROFS, EIO from
 * a write carry no path): `error` itself, its `code` kept, the message prefixed once.
 */
export function withPath(error: unknown, action: string, path: string): unknown {
  const e = error as NodeJS.ErrnoException;
  if (e instanceof Error && typeof e.code === "string" && !e.message.includes(path)) {
    e.message = `${e.code}: cannot ${action} ${path}: ${e.message}`;
  }
  return error;
}
