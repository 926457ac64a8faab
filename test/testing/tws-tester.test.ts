/**
 * TwsTester (arus/testing): a processor driven without a query — rows per key, state set and
 * peeked, processing-time and event-time timers fired by moving the clock or the watermark.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AbandonedCheckout } from "../../examples/tokokita-abandoned-checkout.js";
import { type ProcessorRow, StatefulProcessor, type StatefulProcessorHandle, type TimerValues, type ValueState } from "../../src/index.js";
import { TwsTester } from "../../src/testing/index.js";

class RunningCount extends StatefulProcessor {
  private count!: ValueState;
  init(h: StatefulProcessorHandle) {
    this.count = h.getValueState("count", "value BIGINT");
  }
  override handleInitialState(_k: readonly unknown[], row: ProcessorRow) {
    this.count.update({ value: row.initial });
  }
  *handleInputRows(key: readonly unknown[], rows: readonly ProcessorRow[]) {
    const n = ((this.count.get()?.value as number | undefined) ?? 0) + rows.length;
    this.count.update({ value: n });
    yield { key: key[0], count: n };
  }
}

describe("TwsTester", () => {
  it("runs rows per key and shows the state", () => {
    const t = new TwsTester(new RunningCount(), { initialState: [["z", { initial: 10 }]] });
    assert.deepEqual(t.test("a", [{ v: 1 }, { v: 2 }]), [{ key: "a", count: 2 }]);
    assert.deepEqual(t.testOneRow("a", { v: 3 }), [{ key: "a", count: 3 }]);
    assert.deepEqual(t.test("z", [{ v: 1 }]), [{ key: "z", count: 11 }]);
    assert.deepEqual(t.peekValueState("count", "a"), { value: 3 });
    assert.equal(t.peekValueState("count", "b"), null);
    t.setValueState("count", "b", { value: 41 });
    assert.deepEqual(t.test("b", [{}]), [{ key: "b", count: 42 }]);
    t.deleteState("count", "b");
    assert.equal(t.peekValueState("count", "b"), null);
    assert.throws(() => t.peekListState("count", "a"), /"count" is a value state, not a list state/);
    assert.throws(() => t.peekValueState("nope", "a"), /declares no state variable "nope"/);
  });

  it("fires event-time timers when the watermark moves (the example's processor)", () => {
    const t = new TwsTester(new AbandonedCheckout(), { timeMode: "eventTime" });
    const at = (hhmm: string) => new Date(`2026-10-16T${hhmm}:00Z`);
    assert.deepEqual(t.test("sari", [{ event: "add_to_cart", produk: "Rok Tenun", event_time: at("10:00") }]), []);
    assert.deepEqual(t.peekTimers("sari"), [at("10:10").getTime()]);
    assert.deepEqual(t.peekListState("items", "sari"), [{ produk: "Rok Tenun" }]);
    assert.deepEqual(t.setWatermark(at("10:10").getTime() - 1), [], "a timer fires once the watermark reaches it");
    const alerts = t.setWatermark(at("10:10").getTime());
    assert.deepEqual(alerts, [{ user_id: "sari", produk: "Rok Tenun", keranjang_sejak: at("10:00"), peringatan_pada: at("10:10") }]);
    assert.deepEqual(t.peekListState("items", "sari"), []);
    assert.deepEqual(t.peekTimers("sari"), []);
    t.test("budi", [{ event: "add_to_cart", produk: "Kopi", event_time: at("10:20") }]);
    t.test("budi", [{ event: "checkout", produk: null, event_time: at("10:21") }]);
    assert.deepEqual(t.setWatermark(at("11:00").getTime()), [], "a paid cart is never alerted");
  });

  it("fires processing-time timers and expires TTL by the tester's clock", () => {
    class Reminder extends StatefulProcessor {
      private h!: StatefulProcessorHandle;
      private last!: ValueState;
      init(h: StatefulProcessorHandle) {
        this.h = h;
        this.last = h.getValueState("last", "v INT", 1000);
      }
      handleInputRows(_k: readonly unknown[], rows: readonly ProcessorRow[], tv: TimerValues) {
        this.last.update({ v: rows.at(-1)!.v });
        this.h.registerTimer(tv.getCurrentProcessingTimeInMs() + 500);
        return [];
      }
      override *handleExpiredTimer(key: readonly unknown[], tv: TimerValues) {
        yield { k: key[0], at: tv.getCurrentProcessingTimeInMs(), v: this.last.get()?.v ?? null };
      }
    }
    const t = new TwsTester(new Reminder(), { timeMode: "processingTime", processingTimeMs: 100 });
    t.test("a", [{ v: 7 }]);
    assert.deepEqual(t.setProcessingTime(599), []);
    assert.deepEqual(t.setProcessingTime(600), [{ k: "a", at: 600, v: 7 }]);
    assert.deepEqual(t.peekValueState("last", "a"), { v: 7 });
    t.setProcessingTime(1100); // stamped at 100 + 1000
    assert.equal(t.peekValueState("last", "a"), null);
  });

  it("refuses timers in time mode none", () => {
    let handle: StatefulProcessorHandle | null = null;
    const t = new TwsTester({
      init(h: StatefulProcessorHandle) {
        handle = h;
      },
      handleInputRows() {
        handle!.registerTimer(1);
        return [];
      },
    });
    assert.throws(() => t.test("a", [{}]), /STATEFUL_PROCESSOR_CANNOT_PERFORM_OPERATION_WITH_INVALID_TIME_MODE/);
  });
});
