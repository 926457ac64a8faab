/**
 * How the state files (files.ts) reach the disk: a CheckpointFs plus streaming reads and
 * writes, so a big snapshot is neither built nor read whole in memory. nodeStateFs fdatasyncs
 * every file before its rename; unsyncedStateFs (`arus.checkpoint.fsync=false`) does not. A
 * running query's stores write through queryStateFs / unsyncedQueryStateFs: their temp files
 * are spares made ahead (spare-files.ts), which the query deletes when it ends.
 */
import fsSync, { promises as fsp } from "node:fs";
import { type CheckpointFs, checkpointFs, nodeFs } from "../checkpoint/atomic-file.js";
import { spareFiles } from "../checkpoint/spare-files.js";
import type { ByteSource } from "./codec.js";

/** Streaming file access; optional, so a plain CheckpointFs (tests inject failures there) works. */
export interface StateFs extends CheckpointFs {
  openWrite?(p: string): Promise<{ write(b: Uint8Array): Promise<void>; sync(): Promise<void>; close(): Promise<void> }>;
  openRead?(p: string): Promise<ByteSource>;
}

/**
 * Synchronous for the reason given at nodeFs: the commit waits for the file anyway, and a small
 * delta would otherwise cost four thread-pool round trips. The fdatasync alone goes to the
 * thread pool: it is the wait, and the partitions of one commit wait for theirs together.
 */
function openWrite(spares: boolean): NonNullable<StateFs["openWrite"]> {
  return async (p) => {
    // "w" truncates a claimed spare (a recycled one holds an old file's bytes)
    const fd = fsSync.openSync(p, spares && spareFiles.claim(p) ? "w" : "wx");
    return {
      write: async (b) => {
        let off = 0;
        while (off < b.length) off += fsSync.writeSync(fd, b, off, b.length - off);
      },
      sync: () => new Promise<void>((resolve, reject) => fsSync.fdatasync(fd, (e) => (e ? reject(e) : resolve()))),
      close: async () => fsSync.closeSync(fd),
    };
  };
}

export const nodeStateFs: StateFs = {
  ...nodeFs,
  openWrite: openWrite(false),
  async openRead(p) {
    const h = await fsp.open(p, "r");
    const { size } = await h.stat();
    return {
      size,
      async read(pos, len) {
        const buf = Buffer.allocUnsafe(len);
        let got = 0;
        while (got < len) {
          const { bytesRead } = await h.read(buf, got, len - got, pos + got);
          if (bytesRead === 0) break;
          got += bytesRead;
        }
        return got === len ? buf : buf.subarray(0, got);
      },
      close: () => h.close(),
    };
  },
};

/** That fs without the fdatasync (`arus.checkpoint.fsync=false`; see unsyncedFs). */
function unsynced(fs: StateFs): StateFs {
  return {
    ...fs,
    sync: async () => {},
    async openWrite(p) {
      const out = await fs.openWrite!(p);
      return { ...out, sync: async () => {} };
    },
  };
}

export const unsyncedStateFs: StateFs = unsynced(nodeStateFs);

/** A running query's stores: nodeStateFs with spare files (the query's end deletes them). */
export const queryStateFs: StateFs = {
  ...nodeStateFs,
  writeFile: checkpointFs.writeFile,
  unlink: checkpointFs.unlink,
  openWrite: openWrite(true),
};
export const unsyncedQueryStateFs: StateFs = unsynced(queryStateFs);
