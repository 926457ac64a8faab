"""The comparison queries in PySpark: the twin of bench/arus/queries.ts, line for line.

Every query reads JSON-lines files (or their Parquet copies, ctx.format) through the streaming file source with an explicit schema and
maxFilesPerTrigger, so both engines see the same files in the same micro-batches. Rewrites of
the original Nexmark queries (q5, q7, q8) are the same in both engines; see docs/benchmarks.md.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

PERSON_SCHEMA = "id BIGINT, name STRING, emailAddress STRING, creditCard STRING, city STRING, state STRING, dateTime TIMESTAMP, extra STRING"
AUCTION_SCHEMA = (
    "id BIGINT, itemName STRING, description STRING, initialBid BIGINT, reserve BIGINT, dateTime TIMESTAMP, expires TIMESTAMP, "
    "seller BIGINT, category BIGINT, extra STRING"
)
BID_SCHEMA = "auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, dateTime TIMESTAMP, extra STRING"
ORDER_SCHEMA = "order_id BIGINT, sumber STRING, produk STRING, qty INT, harga BIGINT, event_time TIMESTAMP, arrival_time TIMESTAMP"
PRODUCT_SCHEMA = "produk STRING, kategori STRING"


@dataclass
class QueryContext:
    spark: SparkSession
    data: str
    max_files_per_trigger: int
    format: str = "json"  # or "parquet": the copy bench/data/parquet.ts writes


@dataclass
class QueryDef:
    name: str
    title: str
    output_mode: str
    build: Callable[[QueryContext], DataFrame]


def stream(ctx: QueryContext, d: str, schema: str) -> DataFrame:
    return (
        ctx.spark.readStream.format(ctx.format)
        .schema(schema)
        .option("maxFilesPerTrigger", ctx.max_files_per_trigger)
        .load(os.path.join(ctx.data, d))
    )


def bids(ctx: QueryContext) -> DataFrame:
    return stream(ctx, "nexmark/bid", BID_SCHEMA)


def seed001(ctx: QueryContext) -> DataFrame:
    return (
        stream(ctx, "checkout/orders", ORDER_SCHEMA)
        .withWatermark("event_time", "4 seconds")
        .groupBy(F.window("event_time", "8 seconds"))
        .count()
        .select(F.col("window.start").alias("start"), F.col("window.end").alias("end"), "count")
    )


def seed002(ctx: QueryContext) -> DataFrame:
    kategori = ctx.spark.read.format(ctx.format).schema(PRODUCT_SCHEMA).load(os.path.join(ctx.data, "checkout/products"))
    return (
        stream(ctx, "checkout/orders", ORDER_SCHEMA)
        .withWatermark("event_time", "4 seconds")
        .groupBy(F.window("event_time", "8 seconds"), F.col("produk"))
        .count()
        .join(kategori, "produk")
        .select(F.col("window.start").alias("mulai"), F.col("window.end").alias("selesai"), "produk", "kategori", "count")
    )


def q0(ctx: QueryContext) -> DataFrame:
    return bids(ctx).select("auction", "bidder", "price", "dateTime", "extra")


def q1(ctx: QueryContext) -> DataFrame:
    # A Python float literal is a DOUBLE (SQL's `0.908 * price` would be a DECIMAL, in both
    # engines): both engines compute the same IEEE product.
    return bids(ctx).select("auction", "bidder", (F.col("price") * F.lit(0.908)).alias("price"), "dateTime", "extra")


def q2(ctx: QueryContext) -> DataFrame:
    return bids(ctx).filter(F.col("auction") % 123 == 0).select("auction", "price")


def q5(ctx: QueryContext) -> DataFrame:
    # Rewrite: chained aggregation, max(struct(num, auction)) per window (see queries.ts).
    return (
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
        )
    )


def q7(ctx: QueryContext) -> DataFrame:
    # Rewrite: max(struct(price, auction, bidder, dateTime, extra)) per 10 s tumbling window.
    return (
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
        )
    )


def q8(ctx: QueryContext) -> DataFrame:
    # Rewrite: raw person and auction streams joined on id = seller and equal 10 s windows.
    person = (
        stream(ctx, "nexmark/person", PERSON_SCHEMA)
        .withWatermark("dateTime", "4 seconds")
        .select(F.col("id"), F.col("name"), F.window("dateTime", "10 seconds").alias("pw"))
    )
    auction = (
        stream(ctx, "nexmark/auction", AUCTION_SCHEMA)
        .withWatermark("dateTime", "4 seconds")
        .select(F.col("seller"), F.window("dateTime", "10 seconds").alias("aw"))
    )
    return person.join(auction, (F.col("id") == F.col("seller")) & (F.col("pw") == F.col("aw"))).select(
        F.col("id"), F.col("name"), F.col("pw.start").alias("starttime")
    )


QUERIES = [
    QueryDef("seed001", "seed 001: checkouts per 8 s window, 4 s watermark (append)", "append", seed001),
    QueryDef("seed002", "seed 002: per-product 8 s window count + stream-static join (append)", "append", seed002),
    QueryDef("q0", "Nexmark q0: passthrough", "append", q0),
    QueryDef("q1", "Nexmark q1: currency conversion (projection)", "append", q1),
    QueryDef("q2", "Nexmark q2: selection (auction % 123 = 0)", "append", q2),
    QueryDef("q5", "Nexmark q5: hot items, 10 s window sliding by 2 s (chained aggregation)", "append", q5),
    QueryDef("q7", "Nexmark q7: highest bid per 10 s tumbling window", "append", q7),
    QueryDef("q8", "Nexmark q8: new users, 10 s tumbling window stream-stream join", "append", q8),
]


def query_by_name(name: str) -> QueryDef:
    for q in QUERIES:
        if q.name == name:
            return q
    raise SystemExit(f"unknown query {name}; known: {', '.join(q.name for q in QUERIES)}")
