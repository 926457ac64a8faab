import { defineCase, t } from "../../case.js";

export default defineCase({
  description:
    "SHOW COLUMNS IN the micro-batch view (col_name rows in order), and SET of a key with no value reading the recipe's settings (shuffle partitions 1, time zone UTC) as key/value rows.",
  input: {
    schema: "k STRING, n INT, ts TIMESTAMP",
    batches: [[{ k: "a", n: 1, ts: t(5) }]],
  },
  pyspark: "df",
  arus: ({ df }) => df,
  batch: {
    pyspark: `def transform(spark, df):
    df.createOrReplaceTempView("batch")
    cols = spark.sql("SHOW COLUMNS IN batch").select(F.col("col_name").alias("key"), F.lit("column").alias("value"))
    return cols.unionByName(spark.sql("SET spark.sql.shuffle.partitions")).unionByName(spark.sql("SET spark.sql.session.timeZone"))`,
    arus: ({ df, F, session }) => {
      df.createOrReplaceTempView("batch");
      const cols = session.sql("SHOW COLUMNS IN batch").select(F.col("col_name").alias("key"), F.lit("column").alias("value"));
      return cols.unionByName(session.sql("SET spark.sql.shuffle.partitions")).unionByName(session.sql("SET spark.sql.session.timeZone"));
    },
  },
  compare: { ignoreProgress: ["numInputRows"] },
});
