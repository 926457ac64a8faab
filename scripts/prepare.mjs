// `npm run prepare` (npm runs it on `npm ci`/`npm install` in this folder, before `npm pack`,
// and when arus is installed from a git URL or a clone's path): compiles src/ into dist/, the
// package's entry points. A clone installed by path (`npm install ../arus`) is linked, not
// copied, and npm installs none of its dependencies: then install them here first, so the
// compiler is there and the linked package finds its own dependencies at run time.
import { execFileSync, execSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const tsc = path.join(root, "node_modules/typescript/bin/tsc");
if (!existsSync(tsc)) {
  console.error("arus: installing its own dependencies to build dist/ (npm ci)...");
  execSync("npm ci --no-audit --no-fund --prefer-offline --ignore-scripts --loglevel=error", { cwd: root, stdio: "inherit" });
}
execFileSync(process.execPath, [tsc, "-p", path.join(root, "tsconfig.json")], { cwd: root, stdio: "inherit" });
