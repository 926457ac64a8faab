import { defineCase } from "../../case.js";

export default defineCase({
  description:
    "Window functions over a grouped aggregation in one SELECT (rank by sum, share of the total), and a window in another window's ORDER BY.",
  input: {
    schema: "produk STRING, qty INT",
    batches: [
      [
        { produk: "rok", qty: 2 },
        { produk: "tas", qty: 1 },
        { produk: "rok", qty: 3 },
        { produk: "batik", qty: 4 },
        { produk: "tas", qty: null },
      ],
    ],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    sql: `SELECT produk, sum(qty) AS total,
      rank() OVER (ORDER BY sum(qty) DESC) AS peringkat,
      sum(qty) / sum(sum(qty)) OVER () AS bagian,
      sum(count(*)) OVER (ORDER BY row_number() OVER (ORDER BY produk)) AS kumulatif
    FROM batch GROUP BY produk`,
  },
});
