/**
 * The comparison queries in arus. bench/pyspark/queries.py holds the same queries in PySpark,
 * line for line; any rewrite of the original query is the same in both and documented in
 * docs/benchmarks.md ("Queries").
 *
 * Every query reads JSON-lines files (or their Parquet copies, `format`) through the streaming
 * file source with an explicit schema and `maxFilesPerTrigger`, so both engines see the same files in the same micro-batches (the
 * generator gives file k the same modification time in every directory).
 */
import path from "node:path";
import type * as Arus from "../../src/index.js";
import type { DataFrame, Session } from "../../src/index.js";

export const PERSON_SCHEMA =
  "id BIGINT, name STRING, emailAddress STRING, creditCard STRING, city STRING, state STRING, dateTime TIMESTAMP, extra STRING";
export const AUCTION_SCHEMA =
  "id BIGINT, itemName STRING, description STRING, initialBid BIGINT, reserve BIGINT, dateTime TIMESTAMP, expires TIMESTAMP, seller BIGINT, category BIGINT, extra STRING";
export const BID_SCHEMA = "auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, dateTime TIMESTAMP, extra STRING";
export const ORDER_SCHEMA =
  "order_id BIGINT, sumber STRING, produk STRING, qty INT, harga BIGINT, event_time TIMESTAMP, arrival_time TIMESTAMP";
export const PRODUCT_SCHEMA = "produk STRING, kategori STRING";

export interface QueryContext {
  /** The engine's `functions` (from dist/ or src/, whichever the runner loaded). */
  F: typeof Arus.functions;
  session: Session;
  /** Generated data directory (bench/data/out/<size>). */
  data: string;
  maxFilesPerTrigger: number;
  /** Format of the data files (bench/data/parquet.ts makes the Parquet copy). */
  format: "json" | "parquet";
}

export interface QueryDef {
  name: string;
  /** What it computes, for the results table. */
  title: string;
  outputMode: "append" | "update";
  build(ctx: QueryContext): DataFrame;
}

function stream(ctx: Omit<QueryContext, "F">, dir: string, schema: string): DataFrame {
  return ctx.session.readStream
    .format(ctx.format)
    .schema(schema)
    .option("maxFilesPerTrigger", ctx.maxFilesPerTrigger)
    .load(path.join(ctx.data, dir));
}

const bids = (ctx: Omit<QueryContext, "F">) => stream(ctx, "nexmark/bid", BID_SCHEMA);

export const QUERIES: QueryDef[] = [
  {
    name: "seed001",
    title: "seed 001: checkouts per 8 s window, 4 s watermark (append)",
    outputMode: "append",
    build: ({ F, ...ctx }) =>
      stream(ctx, "checkout/orders", ORDER_SCHEMA)
        .withWatermark("event_time", "4 seconds")
        .groupBy(F.window("event_time", "8 seconds"))
        .count()
        .select(F.col("window.start").alias("start"), F.col("window.end").alias("end"), "count"),
  },
  {
    name: "seed002",
    title: "seed 002: per-product 8 s window count + stream-static join (append)",
    outputMode: "append",
    build: (ctx) => {
      const { F } = ctx;
      const kategori = ctx.session.read.format(ctx.format).schema(PRODUCT_SCHEMA).load(path.join(ctx.data, "checkout/products"));
      return stream(ctx, "checkout/orders", ORDER_SCHEMA)
        .withWatermark("event_time", "4 seconds")
        .groupBy(F.window("event_time", "8 seconds"), F.col("produk"))
        .count()
        .join(kategori, "produk")
        .select(F.col("window.start").alias("mulai"), F.col("window.end").alias("selesai"), "produk", "kategori", "count");
    },
  },
  {
    name: "q0",
    title: "Nexmark q0: passthrough",
    outputMode: "append",
    build: (ctx) => bids(ctx).select("auction", "bidder", "price", "dateTime", "extra"),
  },
  {
    name: "q1",
    title: "Nexmark q1: currency conversion (projection)",
    outputMode: "append",
    build: ({ F, ...ctx }) => bids(ctx).select("auction", "bidder", F.col("price").multiply(0.908).alias("price"), "dateTime", "extra"),
  },
  {
    name: "q2",
    title: "Nexmark q2: selection (auction % 123 = 0)",
    outputMode: "append",
    build: ({ F, ...ctx }) => bids(ctx).filter(F.col("auction").mod(123).equalTo(0)).select("auction", "price"),
  },
  {
    // Rewrite: the original joins the per-auction counts with their per-window maximum; here
    // the second step is a chained aggregation picking max(struct(num, auction)) per window
    // (one hot item per window; ties go to the larger auction id).
    name: "q5",
    title: "Nexmark q5: hot items, 10 s window sliding by 2 s (chained aggregation)",
    outputMode: "append",
    build: ({ F, ...ctx }) =>
      bids(ctx)
        .withWatermark("dateTime", "4 seconds")
        .groupBy(F.window("dateTime", "10 seconds", "2 seconds"), F.col("auction"))
        .agg(F.count("*").alias("num"))
        .groupBy("window")
        .agg(F.max(F.struct("num", "auction")).alias("hot"))
        .select(
          F.col("window.start").alias("starttime"),
          F.col("window.end").alias("endtime"),
          F.col("hot.auction").alias("auction"),
          F.col("hot.num").alias("num"),
        ),
  },
  {
    // Rewrite: the original joins bids with the per-window max price; here the highest bid is
    // max(struct(price, auction, bidder, dateTime, extra)) per 10 s tumbling window (one bid per
    // window; ties broken by the following fields).
    name: "q7",
    title: "Nexmark q7: highest bid per 10 s tumbling window",
    outputMode: "append",
    build: ({ F, ...ctx }) =>
      bids(ctx)
        .withWatermark("dateTime", "4 seconds")
        .groupBy(F.window("dateTime", "10 seconds"))
        .agg(F.max(F.struct("price", "auction", "bidder", "dateTime", "extra")).alias("top"))
        .select(
          F.col("window.end").alias("window_end"),
          F.col("top.auction").alias("auction"),
          F.col("top.price").alias("price"),
          F.col("top.bidder").alias("bidder"),
          F.col("top.dateTime").alias("dateTime"),
          F.col("top.extra").alias("extra"),
        ),
  },
  {
    // Rewrite: the original joins two windowed GROUP BYs (persons; sellers per window); here
    // the raw streams are joined on id = seller and equal 10 s tumbling windows, so a seller
    // with k auctions in the window of their registration yields k rows.
    name: "q8",
    title: "Nexmark q8: new users, 10 s tumbling window stream-stream join",
    outputMode: "append",
    build: (ctx) => {
      const { F } = ctx;
      const person = stream(ctx, "nexmark/person", PERSON_SCHEMA)
        .withWatermark("dateTime", "4 seconds")
        .select(F.col("id"), F.col("name"), F.window("dateTime", "10 seconds").alias("pw"));
      const auction = stream(ctx, "nexmark/auction", AUCTION_SCHEMA)
        .withWatermark("dateTime", "4 seconds")
        .select(F.col("seller"), F.window("dateTime", "10 seconds").alias("aw"));
      return person
        .join(
          auction,
          F.col("id")
            .equalTo(F.col("seller"))
            .and(F.col("pw").equalTo(F.col("aw"))),
        )
        .select(F.col("id"), F.col("name"), F.col("pw.start").alias("starttime"));
    },
  },
];

export function queryByName(name: string): QueryDef {
  const q = QUERIES.find((x) => x.name === name);
  if (!q) throw new Error(`unknown query ${name}; known: ${QUERIES.map((x) => x.name).join(", ")}`);
  return q;
}
