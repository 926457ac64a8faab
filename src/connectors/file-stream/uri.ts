/**
 * Paths in metadata logs are URIs (`file:///abs/a%20b.json`), as Hadoop's `Path.toUri` gives
 * them; this is the one place that converts both ways. Readers also accept Hadoop's
 * single-slash `file:/abs` form and plain absolute paths.
 */
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export function toFileUri(path: string): string {
  return pathToFileURL(resolve(path)).href;
}

export function fromFileUri(uri: string): string {
  if (!uri.startsWith("file:")) return resolve(uri);
  // `file:/abs` (Hadoop) → `file:///abs` so the URL parser does not read `abs` as a host.
  const normal = uri.startsWith("file://") ? uri : `file://${uri.slice("file:".length)}`;
  return fileURLToPath(normal);
}
