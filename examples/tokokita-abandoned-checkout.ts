/**
 * TokoKita — keranjang yang ditinggalkan (abandoned checkouts) with transformWithState.
 *
 * Cart events per user arrive as a stream: `add_to_cart` (with a product) and `checkout`. A
 * StatefulProcessor keeps each user's open cart in state (a ListState of products and a
 * ValueState with when the cart was opened) and an event-time timer 10 minutes after the
 * user's last cart event. A `checkout` clears the cart and its timer; when the watermark passes
 * the timer, the processor emits one alert for the abandoned cart and clears the state — so
 * state stays bounded by the carts that are still open.
 *
 *   node --import tsx examples/tokokita-abandoned-checkout.ts
 *
 * Four micro-batches of events (times in UTC), a 2-minute watermark:
 *   batch 0: sari adds Rok Tenun (10:00) and Tas Rotan (10:03); budi adds Kopi Gayo (10:01);
 *            dewi adds Batik Tulis (10:02)
 *   batch 1: budi checks out (10:05); dewi adds Sambal Roa (10:06)
 *   batch 2: eko adds Kain Songket (10:20) — the watermark moves to 10:18, past sari's timer
 *            (10:13) and dewi's (10:16): two alerts, in the no-data batch that follows
 *   batch 3: eko checks out (10:24); nothing more is alerted.
 * (Each batch of events runs a data micro-batch; a moved watermark adds a no-data one.)
 */
import {
  type ListState,
  type ProcessorRow,
  Session,
  StatefulProcessor,
  type StatefulProcessorHandle,
  type TimerValues,
  type ValueState,
} from "../src/index.js";
import { type ExampleOptions, isMain, printer } from "./lib/run.js";

const TEN_MINUTES = 10 * 60 * 1000;

/** One open cart per user; an alert when it was left alone for 10 minutes of event time. */
export class AbandonedCheckout extends StatefulProcessor {
  private handle!: StatefulProcessorHandle;
  private items!: ListState;
  private since!: ValueState;

  init(handle: StatefulProcessorHandle): void {
    this.handle = handle;
    this.items = handle.getListState("items", "produk STRING");
    this.since = handle.getValueState("since", "opened TIMESTAMP");
  }

  handleInputRows(_key: readonly unknown[], rows: readonly ProcessorRow[], _timerValues: TimerValues): ProcessorRow[] {
    const byTime = [...rows].sort((a, b) => (a.event_time as Date).getTime() - (b.event_time as Date).getTime());
    for (const r of byTime) {
      for (const t of [...this.handle.listTimers()]) this.handle.deleteTimer(t);
      if (r.event === "checkout") {
        // Paid: the cart is no longer open, nothing to alert.
        this.items.clear();
        this.since.clear();
        continue;
      }
      this.items.appendValue({ produk: r.produk });
      if (!this.since.exists()) this.since.update({ opened: r.event_time });
      this.handle.registerTimer((r.event_time as Date).getTime() + TEN_MINUTES);
    }
    return [];
  }

  override *handleExpiredTimer(
    key: readonly unknown[],
    _timerValues: TimerValues,
    info: { getExpiryTimeInMs(): number },
  ): Generator<ProcessorRow> {
    const produk = [...this.items.get()].map((r) => r.produk as string);
    yield {
      user_id: key[0],
      produk: produk.join(", "),
      keranjang_sejak: this.since.get()?.opened ?? null,
      peringatan_pada: new Date(info.getExpiryTimeInMs()),
    };
    this.items.clear();
    this.since.clear();
  }
}

export interface AbandonedCheckoutResult {
  alerts: { user_id: string; produk: string }[];
  numBatches: number;
  /** State rows left when the query stopped (only eko's cart was open, and it was paid). */
  stateRowsAtEnd: number;
}

const at = (hhmm: string) => new Date(`2026-10-16T${hhmm}:00Z`);

export async function tokokitaAbandonedCheckout(opts: ExampleOptions = {}): Promise<AbandonedCheckoutResult> {
  const say = printer(opts.out);
  const spark = Session.builder()
    .appName("tokokita-abandoned-checkout")
    .config("spark.sql.shuffle.partitions", "2")
    .config("spark.sql.session.timeZone", opts.timeZone ?? "UTC")
    .getOrCreate();
  const events = spark.memoryStream("user_id STRING, event STRING, produk STRING, event_time TIMESTAMP");

  const alerts = events
    .toDF()
    .withWatermark("event_time", "2 minutes")
    .groupBy("user_id")
    .transformWithState(
      new AbandonedCheckout(),
      "user_id STRING, produk STRING, keranjang_sejak TIMESTAMP, peringatan_pada TIMESTAMP",
      "append",
      "eventTime",
    );

  const seen: { user_id: string; produk: string }[] = [];
  let numBatches = 0;
  const q = await alerts.writeStream
    .outputMode("append")
    .foreachBatch(async (df, batchId) => {
      numBatches++;
      const rows = await df.orderBy("user_id").collect();
      say(`-- batch ${batchId}: ${rows.length} peringatan`);
      for (const r of rows) {
        const since = (r.keranjang_sejak as Date).toISOString().slice(11, 16);
        const alertAt = (r.peringatan_pada as Date).toISOString().slice(11, 16);
        say(`keranjang ditinggalkan: ${r.user_id} (${r.produk}), dibuka ${since}, peringatan ${alertAt}`);
        seen.push({ user_id: r.user_id as string, produk: r.produk as string });
      }
    })
    .start();
  const batches = [
    [
      { user_id: "sari", event: "add_to_cart", produk: "Rok Tenun", event_time: at("10:00") },
      { user_id: "budi", event: "add_to_cart", produk: "Kopi Gayo", event_time: at("10:01") },
      { user_id: "dewi", event: "add_to_cart", produk: "Batik Tulis", event_time: at("10:02") },
      { user_id: "sari", event: "add_to_cart", produk: "Tas Rotan", event_time: at("10:03") },
    ],
    [
      { user_id: "budi", event: "checkout", produk: null, event_time: at("10:05") },
      { user_id: "dewi", event: "add_to_cart", produk: "Sambal Roa", event_time: at("10:06") },
    ],
    [{ user_id: "eko", event: "add_to_cart", produk: "Kain Songket", event_time: at("10:20") }],
    [{ user_id: "eko", event: "checkout", produk: null, event_time: at("10:24") }],
  ];
  for (const b of batches) {
    events.addData(b);
    await q.processAllAvailable();
  }
  const stateRowsAtEnd = q.lastProgress?.stateOperators[0]?.numRowsTotal ?? -1;
  await q.stop();
  await spark.stop();
  say(`total peringatan: ${seen.length}`);
  return { alerts: seen, numBatches, stateRowsAtEnd };
}

if (isMain(import.meta.filename)) await tokokitaAbandonedCheckout();
