// Group mode's writer options (src/runtime/cluster/options.ts): arus.cluster.rebalanceProtocol.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { clusterOptions } from "../../src/runtime/cluster/options.js";

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
