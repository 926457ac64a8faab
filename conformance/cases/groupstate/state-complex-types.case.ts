import { Decimal } from "../../../src/index.js";
import { defineCase } from "../../case.js";

const FUNC = `
import decimal
import pandas as pd
from pyspark.sql.streaming.state import GroupStateTimeout

def fn(key, pdfs, state):
    if state.exists:
        tags, last, total, big_sum, first_ts = state.get
        tags = tags.split(",")
        last = None if last is None else (last[0], last[1])
    else:
        tags, last, total, big_sum, first_ts = [], None, decimal.Decimal("0.00"), 0, None
    for pdf in pdfs:
        for r in pdf.sort_values("ts").itertuples(index=False):
            ts = r.ts.to_pydatetime()
            tags.append(r.tag)
            last = (r.tag, ts)
            total += r.amount
            big_sum += int(r.big)
            if first_ts is None or ts < first_ts:
                first_ts = ts
    state.update((",".join(tags), last, total, big_sum, first_ts))
    yield pd.DataFrame({"k": [key[0]], "tags": [tags], "last": [{"tag": last[0], "ts": last[1]}],
                        "total": [total], "big_sum": [big_sum], "first_ts": [first_ts]})

def build(spark, df):
    return df.groupBy("k").applyInPandasWithState(
        fn,
        "k STRING, tags ARRAY<STRING>, last STRUCT<tag: STRING, ts: TIMESTAMP>, total DECIMAL(12,2), big_sum BIGINT, first_ts TIMESTAMP",
        "tags STRING, last STRUCT<tag: STRING, ts: TIMESTAMP>, total DECIMAL(12,2), big_sum BIGINT, first_ts TIMESTAMP",
        "Update", GroupStateTimeout.NoTimeout)
`;

const line = (k: string, tag: string, amount: string, big: string, ts: string) =>
  `{"k":"${k}","tag":"${tag}","amount":${amount},"big":${big},"ts":"${ts}"}\n`;

export default defineCase({
  description:
    "State with a STRUCT holding a TIMESTAMP, a DECIMAL running total, a BIGINT sum beyond 2^53 and a microsecond TIMESTAMP: every field survives the round trip through the state store exactly; the output has an ARRAY and a STRUCT column.",
  notes:
    "The list of tags is kept in the state as comma-joined text: PySpark 4.3 cannot take an ARRAY field in applyInPandasWithState's stateStructType (the Python worker fails reading the state schema, KeyError 'elementType' in ArrayType.fromJson via EvalConf.state_value_schema).",
  input: {
    schema: "k STRING, tag STRING, amount DECIMAL(10,2), big BIGINT, ts TIMESTAMP",
    files: [
      line("a", "x", "1.25", "9007199254740993", "2024-01-01T00:00:02.000001Z") +
        line("a", "y", "0.10", "1", "2024-01-01T00:00:01.000007Z") +
        line("b", "z", "99999999.99", "-5", "2024-01-01T00:00:03.123456Z"),
      line("a", "w", "2.00", "2", "2024-01-01T00:00:00.999999Z"),
      line("b", "v", "0.01", "9223372036854775000", "2024-01-01T00:00:09.000000Z"),
    ],
  },
  outputMode: "update",
  pyspark: FUNC,
  arus: ({ df }) =>
    df.groupBy("k").flatMapGroupsWithState(
      // biome-ignore lint/suspicious/noExplicitAny: the case runner's types are loose on purpose
      (key: unknown[], rows: any[], state: any) => {
        // biome-ignore lint/suspicious/noExplicitAny: as above
        let tags: string[], last: any, total: Decimal, bigSum: bigint, firstTs: Date | null;
        if (state.exists) {
          ({ tags, last, total, big_sum: bigSum, first_ts: firstTs } = state.get);
          tags = (tags as unknown as string).split(",");
          bigSum = BigInt(bigSum);
        } else {
          [tags, last, total, bigSum, firstTs] = [[], null, new Decimal(0n, 2), 0n, null];
        }
        const micros = (d: Date) => BigInt((d as Date & { micros: number | bigint }).micros);
        for (const r of [...rows].sort((x, y) => (micros(x.ts) < micros(y.ts) ? -1 : 1))) {
          tags.push(r.tag);
          last = { tag: r.tag, ts: r.ts };
          total = new Decimal(total.unscaled + r.amount.unscaled, 2);
          bigSum += BigInt(r.big);
          if (firstTs === null || micros(r.ts) < micros(firstTs)) firstTs = r.ts;
        }
        state.update({ tags: tags.join(","), last, total, big_sum: bigSum, first_ts: firstTs });
        return [{ k: key[0], tags, last, total, big_sum: bigSum, first_ts: firstTs }];
      },
      "k STRING, tags ARRAY<STRING>, last STRUCT<tag: STRING, ts: TIMESTAMP>, total DECIMAL(12,2), big_sum BIGINT, first_ts TIMESTAMP",
      "tags STRING, last STRUCT<tag: STRING, ts: TIMESTAMP>, total DECIMAL(12,2), big_sum BIGINT, first_ts TIMESTAMP",
      "update",
      "NoTimeout",
    ),
  // Spark's Python operator is named "applyInPandasWithState"; arus names it after Scala's flatMapGroupsWithState.
  compare: { ignoreProgress: ["operatorName"] },
});
