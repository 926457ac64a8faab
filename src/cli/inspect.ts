/**
 * `arus checkpoint inspect <dir>`: what a checkpoint holds — query id, batches with their
 * offsets, watermarks and commit state, and state files and sizes per operator.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { FileMetadataLog } from "../checkpoint/metadata-log.js";
import { commitCodec, offsetCodec } from "../checkpoint/offset-log.js";
import { isoUtcMillis } from "../common/datetime/index.js";

interface OperatorInfo {
  operatorId: number;
  name: string | null;
  partitions: number;
  files: number;
  bytes: number;
  latestVersion: number;
}

async function du(dir: string): Promise<{ files: number; bytes: number; latest: number }> {
  let files = 0;
  let bytes = 0;
  let latest = 0;
  for (const e of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      const r = await du(p);
      files += r.files;
      bytes += r.bytes;
      latest = Math.max(latest, r.latest);
    } else {
      files++;
      bytes += (await fs.stat(p)).size;
      const m = /^(\d+)\.(delta|snapshot)$/.exec(e.name);
      if (m) latest = Math.max(latest, Number(m[1]));
    }
  }
  return { files, bytes, latest };
}

export async function inspectCheckpoint(dir: string, json: boolean): Promise<string> {
  const root = path.resolve(dir);
  const meta = await fs.readFile(path.join(root, "metadata"), "utf8").catch(() => null);
  if (meta === null) throw new Error(`${root} is not a checkpoint: it has no metadata file.`);
  const offsets = new FileMetadataLog(path.join(root, "offsets"), offsetCodec);
  const commits = new FileMetadataLog(path.join(root, "commits"), commitCodec);
  const committed = new Set(await commits.ids());
  const batches = [];
  for (const id of await offsets.ids()) {
    const o = (await offsets.get(id))!;
    const c = committed.has(id) ? await commits.get(id) : undefined;
    batches.push({
      batchId: id,
      committed: c !== undefined,
      watermark: isoUtcMillis(o.metadata.batchWatermarkMs),
      nextWatermark: c ? isoUtcMillis(c.nextBatchWatermarkMs) : null,
      timestamp: isoUtcMillis(o.metadata.batchTimestampMs),
      offsets: o.offsets,
    });
  }
  const operators: OperatorInfo[] = [];
  for (const op of (await fs.readdir(path.join(root, "state")).catch(() => [] as string[]))
    .filter((d) => /^\d+$/.test(d))
    .sort((a, b) => Number(a) - Number(b))) {
    const opDir = path.join(root, "state", op);
    const metaText = await fs.readFile(path.join(opDir, "_metadata", "metadata"), "utf8").catch(() => null);
    const opMeta = metaText ? (JSON.parse(metaText.slice(metaText.indexOf("\n") + 1)) as { operatorName: string }) : null;
    const parts = (await fs.readdir(opDir)).filter((d) => /^\d+$/.test(d));
    const size = await du(opDir);
    operators.push({
      operatorId: Number(op),
      name: opMeta?.operatorName ?? null,
      partitions: parts.length,
      files: size.files,
      bytes: size.bytes,
      latestVersion: size.latest,
    });
  }
  const report = {
    checkpoint: root,
    queryId: (JSON.parse(meta) as { id: string }).id,
    batches,
    operators,
    conf: batches.length ? (await offsets.get(batches.at(-1)!.batchId))!.metadata.conf : {},
  };
  if (json) return `${JSON.stringify(report, null, 2)}\n`;
  const lines = [
    `checkpoint ${root}`,
    `query id  ${report.queryId}`,
    `batches   ${batches.length}${batches.length ? ` (${batches[0]!.batchId}..${batches.at(-1)!.batchId})` : ""}`,
  ];
  for (const b of batches) {
    lines.push(
      `  batch ${b.batchId}${b.committed ? "" : " (not committed: re-runs on restart)"}  watermark ${b.watermark}${b.nextWatermark ? ` -> ${b.nextWatermark}` : ""}  at ${b.timestamp}`,
    );
    lines.push(`    offsets ${b.offsets.map((o) => (o === null ? "-" : JSON.stringify(o))).join("  ")}`);
  }
  lines.push(`state operators ${operators.length}`);
  for (const o of operators) {
    lines.push(
      `  operator ${o.operatorId}${o.name ? ` (${o.name})` : ""}: ${o.partitions} partitions, ${o.files} files, ${o.bytes} bytes, latest version ${o.latestVersion}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
