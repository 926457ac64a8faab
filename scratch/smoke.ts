import { Session, functions as F } from "../src/index.js";
const session = Session.builder().appName("t").config("spark.sql.session.timeZone", "UTC").config("spark.sql.shuffle.partitions", "2").getOrCreate();
const df = session.createDataFrame([{ produk: "Rok", kategori: "pakaian", n: 3 }, { produk: "Tas", kategori: "aksesoris", n: 5 }, { produk: "Kain", kategori: "pakaian", n: null }], "produk STRING, kategori STRING, n INT");
await df.show();
await df.groupBy("kategori").agg(F.count("*").alias("c"), F.sum("n"), F.avg("n")).orderBy("kategori").show();
await df.filter("n > 2").select(F.upper("produk"), F.col("n").plus(1)).show();
df.createOrReplaceTempView("t");
await session.sql("SELECT kategori, count(*) AS c FROM t GROUP BY kategori HAVING count(*) > 1").show();
console.log(await session.range(5).collect());

const ms = session.memoryStream("id INT, event_time TIMESTAMP");
const q = await ms.toDF().withWatermark("event_time", "5 seconds").groupBy(F.window("event_time", "10 seconds")).count()
  .writeStream.format("console").outputMode("append").option("truncate", false).start();
ms.addData([{ id: 1, event_time: new Date(12_000) }, { id: 2, event_time: new Date(20_000) }]);
await q.processAllAvailable();
ms.addData([{ id: 3, event_time: new Date(27_000) }]);
await q.processAllAvailable();
ms.addData([{ id: 4, event_time: new Date(13_000) }, { id: 5, event_time: new Date(40_000) }]);
await q.processAllAvailable();
console.log(JSON.stringify(q.lastProgress, null, 1));
await q.stop();
console.log(q.status);
