/**
 * StateMove (src/execution/parallel/state-move.ts): when an operator planned on the state threads
 * moves its state there from the main thread — after `arus.state.threads.moveAfter` of state work
 * in the run (or, in tests, a number of batches), at once without a checkpoint directory to move
 * through — releasing the main thread's stores once and telling its listeners once.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StateMove } from "../../src/execution/parallel/state-move.js";
import type { StatefulContext } from "../../src/execution/stateful/context.js";

function context(stateInFiles: boolean): { st: StatefulContext; released: number[] } {
  const released: number[] = [];
  const st = {
    stateInFiles,
    releaseState: async (op: number) => {
      released.push(op);
    },
  } as unknown as StatefulContext;
  return { st, released };
}

describe("StateMove", () => {
  it("stays on the main thread until the state work there adds up to moveAfter, then moves once", async () => {
    const { st, released } = context(true);
    const move = new StateMove(7, { ms: 5 });
    let told = 0;
    move.whenOnThreads(() => told++);
    assert.equal(move.startsOnThreads(true), false);
    assert.equal(await move.onThreads(st), false);
    move.ranOnMain(3);
    assert.equal(await move.onThreads(st), false, "3 ms of 5");
    move.ranOnMain(2.5);
    assert.deepEqual(released, []);
    assert.equal(await move.onThreads(st), true, "5.5 ms: the next batch runs on the threads");
    assert.deepEqual(released, [7], "the main thread's stores of operator 7 closed");
    assert.equal(told, 1);
    assert.equal(await move.onThreads(st), true);
    assert.deepEqual(released, [7], "released once");
    assert.equal(told, 1, "listeners told once");
    let late = 0;
    move.whenOnThreads(() => late++);
    assert.equal(late, 1, "a listener added after the move is told at once");
  });

  it("moves after a number of batches (arus.test.stateMoveAfterBatches)", async () => {
    const { st, released } = context(true);
    const move = new StateMove(2, { batches: 2 });
    assert.deepEqual([await move.onThreads(st), await move.onThreads(st), await move.onThreads(st)], [false, false, true]);
    assert.deepEqual(released, [2]);
  });

  it("starts on the threads with nothing to wait for, or without files to move the state through", async () => {
    for (const [after, inFiles] of [
      [{ ms: 0 }, true],
      [{ batches: 0 }, true],
      [{ ms: 5000 }, false],
    ] as const) {
      const { st, released } = context(inFiles);
      const move = new StateMove(1, after);
      assert.equal(move.startsOnThreads(inFiles), true);
      assert.equal(await move.onThreads(st), true);
      assert.deepEqual(released, [], "nothing ran on the main thread: nothing to release");
    }
  });
});
