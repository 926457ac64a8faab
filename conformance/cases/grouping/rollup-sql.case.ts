import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "GROUP BY ROLLUP(toko, produk) inside foreachBatch: groups, per-toko subtotals and the grand total, NULL in rolled-up columns (also for a NULL key), grouping_id() bits, and sum/count reading the input's own values of a grouping column.",
  input: {
    schema: "toko STRING, produk STRING, qty INT",
    batches: [
      [
        { toko: "bandung", produk: "rok", qty: 2 },
        { toko: "bandung", produk: "tas", qty: 1 },
        { toko: "bandung", produk: "rok", qty: 3 },
        { toko: "jakarta", produk: "tas", qty: null },
        { toko: "jakarta", produk: null, qty: 4 },
        { toko: null, produk: "batik", qty: 5 },
      ],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    sql: `SELECT toko, produk, sum(qty) AS total, count(produk) AS n_produk, count(*) AS n,
      grouping_id() AS gid, grouping_id(toko, produk) AS gid2
    FROM batch GROUP BY ROLLUP(toko, produk)`,
  },
});
