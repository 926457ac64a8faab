/**
 * In-process CPU profiling for the benchmarks: the inspector's sampling profiler around just
 * the measured part, call frames mapped back to the .ts sources through source maps (node must
 * run with --enable-source-maps for the dist/*.js.map files to be loaded), written as a
 * .cpuprofile that Chrome DevTools opens and bench/profile.ts summarizes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { findSourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

interface CallFrame {
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface Profile {
  nodes: { callFrame: CallFrame }[];
}

/** Map call frames from generated JS to the original sources, where a source map is known. */
export function remapProfile(profile: Profile): void {
  for (const n of profile.nodes) {
    const cf = n.callFrame;
    if (!cf.url.startsWith("file://") || cf.lineNumber < 0) continue;
    const sm = findSourceMap(cf.url) ?? findSourceMap(fileURLToPath(cf.url));
    if (!sm) continue;
    const e = sm.findEntry(cf.lineNumber, cf.columnNumber) as { originalSource?: string; originalLine?: number; originalColumn?: number };
    if (!e?.originalSource) continue;
    cf.url = e.originalSource.startsWith("file://")
      ? e.originalSource
      : pathToFileURL(path.resolve(path.dirname(fileURLToPath(cf.url)), e.originalSource)).href;
    cf.lineNumber = e.originalLine ?? cf.lineNumber;
    cf.columnNumber = e.originalColumn ?? cf.columnNumber;
  }
}

export class Profiler {
  private session: Session | null = null;

  async start(intervalUs = 500): Promise<void> {
    this.session = new Session();
    this.session.connect();
    await this.session.post("Profiler.enable");
    await this.session.post("Profiler.setSamplingInterval", { interval: intervalUs });
    await this.session.post("Profiler.start");
  }

  /** Stop and write `file` (directories created); returns the file. */
  async stop(file: string): Promise<string> {
    if (!this.session) throw new Error("profiler not started");
    const { profile } = (await this.session.post("Profiler.stop")) as unknown as { profile: Profile };
    this.session.disconnect();
    this.session = null;
    remapProfile(profile);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(profile));
    return file;
  }
}
