// Worker for test/common/worker-pool.test.ts: fails while loading.
throw new Error("cannot start");
