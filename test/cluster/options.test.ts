/**
 * Group mode's writer options (src/runtime/cluster/options.ts): the rebalance protocol and the
 * snapshot options, their defaults, and a bad value refused with an error that names the option
 * and the value.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { clusterOptions, internalTopics } from "../../src/runtime/cluster/options.js";

const base = { "arus.cluster.group": "g1" };

describe("group mode options: task snapshots", () => {
  it("defaults: snapshots every 10000 records, 12 h max age, state dir from the checkpoint, not published", () => {
    const o = clusterOptions(base)!;
    assert.equal(o.snapshotInterval, 10000);
    assert.equal(o.snapshotMaxAgeMs, 12 * 3600 * 1000);
    assert.equal(o.stateDir, null);
    assert.equal(o.publishSnapshots, false);
    assert.equal(internalTopics("g1").snapshots, "arus-g1-snapshots");
  });

  it("takes the values given; 0 turns snapshots off", () => {
    const o = clusterOptions({
      ...base,
      "arus.cluster.snapshotInterval": "0",
      "arus.cluster.snapshotMaxAgeMs": "60000",
      "arus.cluster.stateDir": "/var/lib/arus",
      "arus.cluster.publishSnapshots": "TRUE",
    })!;
    assert.deepEqual([o.snapshotInterval, o.snapshotMaxAgeMs, o.stateDir, o.publishSnapshots], [0, 60000, "/var/lib/arus", true]);
  });

  it("a bad value names the option and the value", () => {
    for (const [key, value, why] of [
      [
        "arus.cluster.snapshotInterval",
        "-1",
        /Invalid value '-1' for option 'arus.cluster.snapshotInterval': must be a non-negative integer/,
      ],
      ["arus.cluster.snapshotInterval", "ten", /'ten' for option 'arus.cluster.snapshotInterval'/],
      ["arus.cluster.snapshotInterval", " ", /option 'arus.cluster.snapshotInterval'/],
      ["arus.cluster.snapshotMaxAgeMs", "0", /Invalid value '0' for option 'arus.cluster.snapshotMaxAgeMs': must be a positive integer/],
      ["arus.cluster.publishSnapshots", "yes", /Invalid value 'yes' for option 'arus.cluster.publishSnapshots': must be true or false/],
      ["arus.cluster.stateDir", "", /option 'arus.cluster.stateDir': must be a directory path/],
    ] as const) {
      assert.throws(() => clusterOptions({ ...base, [key]: value }), why, `${key}=${JSON.stringify(value)}`);
    }
  });
});

describe("group mode options", () => {
  it("rebalanceProtocol: cooperative by default, eager on request, anything else refused naming the option", () => {
    assert.equal(clusterOptions({ "arus.cluster.group": "g" })!.rebalanceProtocol, "cooperative");
    assert.equal(clusterOptions({ "arus.cluster.group": "g", "arus.cluster.rebalanceProtocol": "eager" })!.rebalanceProtocol, "eager");
    assert.equal(
      clusterOptions({ "arus.cluster.group": "g", "arus.cluster.rebalanceProtocol": "Cooperative" })!.rebalanceProtocol,
      "cooperative",
    );
    assert.throws(
      () => clusterOptions({ "arus.cluster.group": "g", "arus.cluster.rebalanceProtocol": "sticky" }),
      /Invalid value 'sticky' for option 'arus.cluster.rebalanceProtocol': cooperative or eager/,
    );
    assert.equal(clusterOptions({}), null);
  });
});
