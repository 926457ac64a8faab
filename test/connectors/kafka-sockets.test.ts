/**
 * The sockets arus gives kafkajs (client-kafkajs.ts): while a broker is down, kafkajs
 * disconnects the same never-connected socket at every retry, and each `unref()` of it used to
 * leave a 'connect' listener behind (Node warned "MaxListenersExceededWarning: 11 connect
 * listeners" during the broker-restart test). A socket that is already destroyed ignores it.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import net from "node:net";
import { describe, it } from "node:test";
import { Sockets } from "../../src/connectors/kafka/client-kafkajs.js";

/** A port nothing listens on (a server's, closed again). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, "close");
  return port;
}

describe("kafkajs sockets", () => {
  it("unref() on a socket whose connection was refused adds no 'connect' listener", async () => {
    const port = await closedPort();
    const socket = new Sockets().factory({ host: "127.0.0.1", port, onConnect: () => {} });
    // (events.once would reject on the 'error' before it)
    await new Promise<void>((r) => {
      socket.on("error", () => {});
      socket.once("close", () => r());
    });
    const before = socket.listenerCount("connect");
    for (let i = 0; i < 20; i++) socket.unref();
    assert.equal(socket.listenerCount("connect"), before);
  });

  it("unref() on a connected socket still unrefs it", async () => {
    const server = net.createServer((c) => c.end());
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const { port } = server.address() as net.AddressInfo;
      const socket = new Sockets().factory({ host: "127.0.0.1", port, onConnect: () => {} });
      socket.on("error", () => {});
      await once(socket, "connect");
      assert.equal(socket.unref(), socket);
      socket.destroy();
    } finally {
      server.close();
    }
  });
});
