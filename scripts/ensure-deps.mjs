// Installs node_modules when missing or older than package-lock.json, so `npm start` and
// `npm test` work on a fresh clone with no other step.
import { execSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";

const marker = "node_modules/.package-lock.json";
const stale = !existsSync(marker) || statSync(marker).mtimeMs < statSync("package-lock.json").mtimeMs;
if (stale) {
  console.error("arus: installing dependencies (npm ci)...");
  execSync("npm ci --no-audit --no-fund --loglevel=error", { stdio: "inherit" });
}
