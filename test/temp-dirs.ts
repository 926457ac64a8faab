/** Temp directories for tests, removed when the test file's tests are done (not a test file itself). */
import { mkdtempSync, rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";

/**
 * A function that makes a fresh directory `<tmpdir>/<prefix>XXXXXX` each call. Call it at the top
 * level of a test file: it registers the `after` hook that deletes every directory it made.
 */
export function tempDirs(prefix: string): () => Promise<string> {
  const dirs: string[] = [];
  after(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });
  return async () => {
    const d = await mkdtemp(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
}

/** `tempDirs` for synchronous callers: each call makes a fresh directory; all go once the file's tests are done. */
export function tempDirsSync(prefix: string): () => string {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
}
