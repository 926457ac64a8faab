#!/usr/bin/env node
/**
 * The `arus` command: run a pipeline file, query files with SQL, inspect a checkpoint.
 */
import { Command } from "commander";
import { inspectCheckpoint } from "./inspect.js";
import { runFile } from "./run.js";
import { runSql } from "./sql.js";

const program = new Command()
  .name("arus")
  .description("Spark Structured Streaming for TypeScript: run pipelines, query files, inspect checkpoints.")
  .version("0.1.0");

program
  .command("run")
  .description("run a pipeline file (.ts, .js or .mjs); .ts needs the tsx package")
  .argument("<file>", "the pipeline to run")
  .argument("[args...]", "arguments passed to the pipeline (process.argv)")
  .action(async (file: string, args: string[]) => runFile(file, args));

program
  .command("sql")
  .description(
    "run a batch SQL query and print the result as Spark's show() does; files are tables: json.`path`, csv.`path`, parquet.`path`",
  )
  .argument("<query>", "Spark SQL text")
  // Not variadic (<name=path...> would swallow the query after it): repeat --view per view.
  .option(
    "-v, --view <name=path>",
    "register a file or directory as a view (format from the extension; CSV with a header row); repeat for more views",
    (v: string, acc: string[]) => [...acc, v],
    [] as string[],
  )
  .option("-n, --num-rows <n>", "rows to show", "20")
  .option("--no-truncate", "print cells in full")
  .option("--tz <zone>", "session time zone", process.env.TZ ?? "UTC")
  .action(async (query: string, opts: { view: string[]; numRows: string; truncate: boolean; tz: string }) => runSql(query, opts));

const checkpoint = program.command("checkpoint").description("checkpoint tools");
checkpoint
  .command("inspect")
  .description("print a checkpoint's batches, offsets, watermarks and state sizes per operator")
  .argument("<dir>", "the checkpointLocation")
  .option("--json", "print JSON instead of text")
  .action(async (dir: string, opts: { json?: boolean }) => {
    process.stdout.write(await inspectCheckpoint(dir, opts.json === true));
  });

program.parseAsync(process.argv).catch((e: Error) => {
  process.stderr.write(`arus: ${e.message}\n`);
  process.exit(1);
});
