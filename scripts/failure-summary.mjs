// A node test reporter (scripts/run-tests.mjs adds it beside the TAP output): prints nothing
// until the run ends, then, when something failed, a "== failures" section naming each failed
// test and each failed file with its error, and what that file wrote to stderr or as a runner
// diagnostic ("generated asynchronous activity after the test ended", the exit guard's list of
// open handles). CI keeps only the tail of a long log, so the cause of a failure must be there.
const MAX_LINES_PER_FILE = 40;
const UNNAMED = "(a file the runner does not name)";

export default async function* failureSummary(source) {
  const failures = [];
  /** file → its stderr and diagnostic lines, newest kept */
  const notes = new Map();
  const note = (file, text) => {
    if (!file || !text) return;
    const lines = notes.get(file) ?? [];
    for (const line of String(text).split("\n")) if (line.trim()) lines.push(line);
    notes.set(file, lines.slice(-MAX_LINES_PER_FILE));
  };
  for await (const event of source) {
    const data = event.data ?? {};
    if (event.type === "test:fail") failures.push(data);
    else if (event.type === "test:stderr") note(data.file, data.message);
    // Node 20 gives a diagnostic no file: such errors are listed on their own
    else if (event.type === "test:diagnostic" && /^Error|asynchronous activity/.test(data.message ?? ""))
      note(data.file ?? UNNAMED, data.message);
  }
  if (failures.length === 0) return;
  yield `\n== failures (${failures.length})\n`;
  const failedFiles = new Set();
  for (const f of failures) {
    failedFiles.add(f.file);
    const error = f.details?.error;
    const reason = error?.cause ?? error;
    const text = reason instanceof Error ? reason.stack ?? reason.message : String(reason?.message ?? reason);
    yield `- ${f.file ?? "?"} :: ${f.name}\n    ${text.split("\n").slice(0, 12).join("\n    ")}\n`;
  }
  for (const [file, lines] of notes) {
    if (failedFiles.has(file) || file === UNNAMED) yield `\n-- ${file}: its last stderr and diagnostics\n${lines.map((l) => `    ${l}`).join("\n")}\n`;
  }
}
