import { defineCase } from "../../case.js";

// Orders with ties and NULL amounts; two micro-batches, each ranked on its own inside foreachBatch.
export default defineCase({
  description:
    "row_number, rank, dense_rank, percent_rank, cume_dist and ntile per partition inside foreachBatch, with ties and NULL order keys (row_number ordered by a unique tie-breaker).",
  input: {
    schema: "id INT, toko STRING, harga INT",
    batches: [
      [
        { id: 1, toko: "bandung", harga: 100 },
        { id: 2, toko: "bandung", harga: 250 },
        { id: 3, toko: "bandung", harga: 100 },
        { id: 4, toko: "bandung", harga: null },
        { id: 5, toko: "jakarta", harga: 300 },
        { id: 6, toko: "jakarta", harga: 300 },
        { id: 7, toko: "jakarta", harga: 50 },
        { id: 8, toko: null, harga: 10 },
      ],
      [
        { id: 9, toko: "bandung", harga: 5 },
        { id: 10, toko: "bandung", harga: 5 },
        { id: 11, toko: "bandung", harga: 5 },
      ],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    sql: `SELECT id, toko, harga,
      row_number() OVER (PARTITION BY toko ORDER BY harga DESC, id) AS rn,
      rank() OVER (PARTITION BY toko ORDER BY harga) AS rk,
      dense_rank() OVER (PARTITION BY toko ORDER BY harga) AS dr,
      percent_rank() OVER (PARTITION BY toko ORDER BY harga) AS pr,
      cume_dist() OVER (PARTITION BY toko ORDER BY harga) AS cd,
      ntile(3) OVER (PARTITION BY toko ORDER BY harga NULLS LAST, id) AS nt,
      rank() OVER (ORDER BY harga DESC NULLS FIRST) AS rk_all
    FROM batch`,
  },
});
