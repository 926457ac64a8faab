/** `arus run <file>`: import a pipeline file; TypeScript files go through tsx's loader. */
import path from "node:path";
import { pathToFileURL } from "node:url";

export async function runFile(file: string, args: string[]): Promise<void> {
  const abs = path.resolve(file);
  process.argv = [process.argv[0]!, abs, ...args];
  if (/\.[cm]?ts$/.test(abs)) {
    try {
      const tsx = (await import("tsx/esm/api")) as { register: () => void };
      tsx.register();
    } catch {
      throw new Error(`${file} is TypeScript: install tsx (npm i -D tsx) or compile it to JavaScript first.`);
    }
  }
  await import(pathToFileURL(abs).href);
}
