/// <reference lib="dom" />
/**
 * The dashboard in a real browser: Debian's headless Chromium (/usr/bin/chromium, installed by
 * scripts/setup-monitoring.sh) driven by playwright-core. A query named
 * `<img src=x onerror=alert(1)>` runs on a manual clock; the page, loaded while it runs, must
 * show the numbers of its recentProgress, draw chart points, show the late-rows alert the test
 * triggers and then its resolution, run no injected markup, and log no console error. A
 * screenshot is saved (ARUS_UPDATE_SCREENSHOT=1 writes docs/images/dashboard.png).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { type Browser, chromium } from "playwright-core";
import { dashboardUrl, functions as F, Session } from "../../src/index.js";
import { ManualClock } from "../../src/testing/index.js";
import { waitUntilQuiet } from "../../src/testing/wait.js";

const CHROMIUM = "/usr/bin/chromium";
const root = path.resolve(import.meta.dirname, "../..");

/** Install Chromium when missing and we may (root with apt-get); the reason to skip otherwise. */
function browserMissing(): string | false {
  if (!existsSync(CHROMIUM) && process.getuid?.() === 0 && existsSync("/usr/bin/apt-get")) {
    try {
      execFileSync("bash", [path.join(root, "scripts/setup-monitoring.sh")], { stdio: "inherit", timeout: 300_000 });
    } catch {
      // reported below
    }
  }
  if (existsSync(CHROMIUM) || process.env.ARUS_REQUIRE_BROWSER) return false;
  return `${CHROMIUM} is not installed (bash scripts/setup-monitoring.sh installs Debian's chromium; .ci/run does)`;
}

const NAME = "<img src=x onerror=alert(1)>";

describe("the dashboard in headless Chromium", { skip: browserMissing() }, () => {
  it("shows the query's progress, charts and an alert firing then resolving, and runs nothing injected", { timeout: 180_000 }, async () => {
    const session = new Session({
      "spark.app.name": "dashboard-browser",
      "spark.sql.session.timeZone": "UTC",
      "spark.sql.shuffle.partitions": "2",
      "spark.ui.port": "0",
      [`arus.monitoring.query.${NAME}.alerts.lateRows.resolveBatches`]: "1",
    });
    const clock = new ManualClock(Date.UTC(2026, 11, 1, 8, 0, 0));
    const ms = session.memoryStream("ts TIMESTAMP, shop STRING");
    const counts = ms
      .toDF()
      .observe("orders", F.count(F.lit(1)).alias("rows"))
      .withWatermark("ts", "5 seconds")
      .groupBy(F.window("ts", "10 seconds"), "shop")
      .count();
    const q = await counts.writeStream
      .format("memory")
      .queryName(NAME)
      .outputMode("append")
      .trigger({ processingTime: "1 second" })
      .withClock(clock)
      .start();
    let browser: Browser | null = null;
    const base = clock.now() / 1000 - 60;
    const at = (s: number, shop = "Bandung") => ({ ts: new Date((base + s) * 1000), shop });
    const batch = async (rows: ReturnType<typeof at>[]) => {
      if (rows.length) ms.addData(rows);
      clock.advance(1000);
      await waitUntilQuiet(q, clock, 10_000);
    };
    try {
      const url = (await dashboardUrl(session))!;
      assert.ok(url);
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
      const page = await browser.newPage({ viewport: { width: 1240, height: 1000 } });
      const problems: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error") problems.push(`console error: ${m.text()}`);
      });
      page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
      page.on("dialog", (d) => {
        problems.push(`a dialog opened: ${d.message()}`);
        void d.dismiss();
      });

      // The queries list: the name is text, not markup.
      await batch([at(0), at(1, "Medan")]);
      await page.goto(url);
      const link = page.locator("[data-testid=active-queries] a.qname");
      await link.waitFor();
      assert.equal(await link.textContent(), NAME);

      // One query, loaded while it runs; ≥ 3 more batches arrive live.
      await link.click();
      await page.waitForSelector("[data-testid=query-name]");
      assert.equal(await page.textContent("[data-testid=query-name]"), NAME);
      await page.waitForSelector("body[data-live=true]");
      await batch([at(2), at(3), at(4, "Medan")]);
      await batch([at(5)]);
      await batch([at(20), at(21, "Medan")]); // the watermark moves to :16 after this one
      await batch([at(22)]); // (the late filter uses the watermark of the batch before: Spark's W(N-1))
      await batch([at(2), at(23)]); // one of two rows late
      const last = q.lastProgress!;
      assert.ok(last.batchId >= 3, "at least 3 batches");
      assert.equal(last.arus?.numLateInputRows, 1);
      await page.waitForSelector(`[data-testid=batches] tr[data-batch="${last.batchId}"]`);
      await page.waitForSelector("[data-testid=alerts] .alert[data-alert=lateRows]");
      assert.equal(await page.textContent("h1 [data-testid=alert-badge]"), "1 alert");

      // Every number in the batches table equals recentProgress.
      const shown = await page.$$eval("[data-testid=batches] tr[data-batch]", (rows) =>
        rows.map((r) => ({
          batchId: r.querySelector(".batchId")!.textContent,
          numInputRows: r.querySelector(".numInputRows")!.textContent,
          inputRowsPerSecond: r.querySelector(".inputRowsPerSecond")!.textContent,
          processedRowsPerSecond: r.querySelector(".processedRowsPerSecond")!.textContent,
          batchDuration: r.querySelector(".batchDuration")!.textContent,
        })),
      );
      const expected = [...q.recentProgress].reverse().map((p) => ({
        batchId: String(p.batchId),
        numInputRows: String(p.numInputRows),
        inputRowsPerSecond: p.inputRowsPerSecond === undefined ? "" : String(p.inputRowsPerSecond),
        processedRowsPerSecond: p.processedRowsPerSecond === undefined ? "" : String(p.processedRowsPerSecond),
        batchDuration: String(p.batchDuration),
      }));
      assert.deepEqual(shown, expected);
      // ... and so do the query's facts
      await page.waitForFunction(
        (id) => [...document.querySelectorAll("[data-testid=facts] tr")].some((r) => r.textContent === `Latest batch${id}`),
        last.batchId,
      );

      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: screenshotPath() });

      // The progress JSON is one click away and equals the query's.
      const row = page.locator(`[data-testid=batches] tr[data-batch="${last.batchId}"]`);
      await row.locator("button.show-json").click();
      assert.deepEqual(JSON.parse((await row.locator("pre.json").textContent())!), JSON.parse(JSON.stringify(last)));

      // Charts drew points: uPlot's canvases are not blank and hold every entry.
      const points = await page.$$eval(".chart", (boxes) =>
        boxes.map((b) => [b.getAttribute("data-chart"), Number(b.getAttribute("data-points"))]),
      );
      for (const [id, n] of points) assert.equal(n, q.recentProgress.length, `chart ${id}`);
      // df.observe's metrics get a chart of their own (a query without observe has none).
      assert.ok(
        points.some(([id]) => id === "observed"),
        `charts: ${points.map(([id]) => id).join(", ")}`,
      );
      assert.match((await page.textContent("[data-chart=observed]"))!, /orders\.rows/);
      const inked = await page.$eval("[data-chart=input] canvas", (c) => {
        const cv = c as HTMLCanvasElement;
        const d = cv.getContext("2d")!.getImageData(0, 0, cv.width, cv.height).data;
        let n = 0;
        for (let i = 3; i < d.length; i += 4) if (d[i]! > 0) n++;
        return n;
      });
      assert.ok(inked > 100, `the input-rows chart drew (${inked} pixels)`);

      // The explainWatermark view.
      assert.match((await page.textContent("[data-testid=watermark]"))!, /^Watermark: .*\n {2}ts: delay 5000 ms/);

      // On-time rows: the alert resolves, live.
      await batch([at(24), at(25, "Medan")]);
      await page.waitForSelector("[data-testid=alerts] .alert[data-alert=lateRows]", { state: "detached" });
      await page.waitForSelector('[data-alert-event="lateRows:resolved"]');
      assert.equal(await page.textContent("h1 [data-testid=alert-badge]"), "healthy");

      // Nothing injected ran or was parsed as markup.
      assert.equal(await page.locator("img[src=x]").count(), 0);
      assert.deepEqual(problems, []);
    } finally {
      await browser?.close();
      await q.stop();
      await session.stop();
    }
  });
});

function screenshotPath(): string {
  if (process.env.ARUS_UPDATE_SCREENSHOT) {
    mkdirSync(path.join(root, "docs/images"), { recursive: true });
    return path.join(root, "docs/images/dashboard.png");
  }
  return path.join(tmpdir(), "arus-dashboard.png");
}
