/**
 * The snapshot cache folder (`arus.cluster.stateDir`) of a test file's group workers: one per
 * file, shared by its workers as workers on one machine share the default, and removed after
 * the file's tests. The default, `<tmp>/arus-cluster-state`, is a cache that outlives the
 * process (docs/scale-out.md), so a group per test left a folder behind on every run.
 */
import { tempDirsSync } from "../temp-dirs.js";

const made = tempDirsSync("arus-cluster-state-");
let dir: string | null = null;

export function clusterStateDir(): string {
  dir ??= made();
  return dir;
}
