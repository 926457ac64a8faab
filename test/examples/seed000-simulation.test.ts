/**
 * Seed 000, part 1: the pure-Python watermark simulation, decided by arus's
 * current_watermark() in a stateless query, must print exactly what the seed printed; and the
 * same ten events under Spark's rule (stateful operators, previous batch's watermark, `<=`).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { seed000WatermarkSimulation } from "../../examples/seed000-watermark-simulation.js";

// Verbatim from the seed ("Output yang Dihasilkan").
const PYTHON_OUTPUT = `tiba= 12 et= 12    web | wm=  0 -> diterima, window [10,20) = 1
tiba= 20 et= 20    web | wm=  7 -> diterima, window [20,30) = 1
tiba= 27 et= 27    web | wm= 15 -> diterima, window [20,30) = 2
    >> watermark 22 menyentuh akhir window [10,20) -> window ditutup, hitungan final 1
tiba= 28 et= 13 mobile | wm= 22 -> DIBUANG  (et 9 detik di bawah watermark)
tiba= 29 et= 24    web | wm= 22 -> diterima, window [20,30) = 3
tiba= 30 et= 33    web | wm= 22 -> diterima, window [30,40) = 1
tiba= 31 et= 22 mobile | wm= 28 -> DIBUANG  (et 6 detik di bawah watermark)
tiba= 32 et= 31    web | wm= 28 -> diterima, window [30,40) = 2
tiba= 33 et= 25 mobile | wm= 28 -> DIBUANG  (et 3 detik di bawah watermark)
tiba= 34 et= 38    web | wm= 28 -> diterima, window [30,40) = 3
    >> watermark 33 menyentuh akhir window [20,30) -> window ditutup, hitungan final 3

ringkasan window:
  [10,20)  hitungan= 1  ditutup
  [20,30)  hitungan= 3  ditutup
  [30,40)  hitungan= 3  masih terbuka
diterima=7 dibuang=3 dari 10 event
`;

test("seed 000 simulation: current_watermark() reproduces the Python output exactly", async () => {
  let printed = "";
  const r = await seed000WatermarkSimulation({ out: { write: (s: string) => (printed += s) } });
  assert.equal(r.simulationText, PYTHON_OUTPUT);
  assert.ok(printed.startsWith(PYTHON_OUTPUT), "the example prints the simulation first");
  assert.equal(r.accepted, 7);
  assert.equal(r.dropped, 3);
  assert.deepEqual(r.windows, [
    { start: 10, count: 1, closed: true },
    { start: 20, count: 3, closed: true },
    { start: 30, count: 3, closed: false },
  ]);

  // Spark's rule on the same ten events, one per micro-batch (no-data batches in between).
  // Row level (dropDuplicates on event_time): late iff et <= previous batch's watermark.
  const dd = r.sparkDropDuplicates.events;
  assert.deepEqual(
    dd.filter((e) => e.dropped).map((e) => e.et),
    [13, 22, 25],
  );
  // The no-data batch after each watermark move makes "the previous batch's watermark" the
  // same number the simulation compares with.
  assert.deepEqual(
    dd.map((e) => e.lateFilterWatermark),
    [0, 7, 15, 22, 22, 22, 28, 28, 28, 28],
  );
  // Windowed count: the operator's event-time column is the window, so a row is late only
  // when its window's end <= the previous batch's watermark: 22 and 25 still count in [20,30).
  const w = r.sparkWindowed;
  assert.deepEqual(
    w.events.filter((e) => e.dropped).map((e) => e.et),
    [13],
  );
  assert.deepEqual(
    w.emitted.map(({ start, end, count }) => ({ start, end, count })),
    [
      { start: 10, end: 20, count: 1 },
      { start: 20, end: 30, count: 5 },
    ],
  );
  // Both windows were emitted by no-data batches (the watermark moved after 27 and after 38).
  assert.ok(w.emitted.every((e) => w.noDataBatches.includes(e.batchId)));
  assert.match(printed, /window count \(Spark's rule\): diterima=9 dibuang=1; \[10,20\) final 1, \[20,30\) final 5/);
});
