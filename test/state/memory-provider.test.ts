// The in-memory provider against the shared state store conformance suite.
import { MemoryStateStoreProvider } from "../../src/state/memory-provider.js";
import { storeConformance } from "./store-conformance.js";

storeConformance("MemoryStateStoreProvider", (dir, opts) => new MemoryStateStoreProvider(dir, opts));
