// Quoted CSV values as Spark 4.3 reads them (univocity, Spark's settings): `""` is not an escape
// under the default escape `\`, so a closing quote followed by more text makes the value its
// text from the opening quote to the separator; white space after a closing quote is dropped;
// a line ending inside quotes ends the value; multiLine reads `\r\n` inside quotes as `\n`.
// Every expected row is PySpark 4.3.0's for the same file and options; the file is read by
// both the byte scanner and the text path (a multi-character separator takes the text path).
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { F, Session } from "../../src/index.js";
import { tempDirsSync } from "../temp-dirs.js";

const tempDir = tempDirsSync("arus-csv-quotes-");

const INPUT =
  '1,a,1.5,true,2024-01-01 10:00:00,2024-01-01\n3,"c,d",NaN,TRUE,2024-01-01 10:00:00.123456,2024/01/01\n4,"e""f",Infinity,false,2024-01-01,20240101\n6,"",Inf,1,"",""\n7,\\"g\\",1e2,yes,1704103200,2024-01-01T00:00\n12,"l\nm",1,true,,\n16,\'q,r\',1,true,,\n18,"s"t,1,true,,\n20,"abc\n21,"ab"c\n22,"a""\n23,"a\\"\n24,"a\\\n25,""\n26,"""\n27,"a" \n28,"a"  b\n29,"a\\"b""c",1\n30,"a\\b",1\n31,"a\\\\b",1\n33,"\\"",1\n34,"a\tb" ,1\n35,"a""b""c",1\n36, "a",1\n37,"a,b""",1\n38,"",""\n39,"a"""",1\n';

// Spark's rows for each option set, PySpark 4.3.0 (to_json of the row)
const EXPECTED: [options: Record<string, string>, rows: string[]][] = [
  [
    {},
    [
      '{"i":1,"s":"a","d":"1.5","b":"true","_corrupt_record":"1,a,1.5,true,2024-01-01 10:00:00,2024-01-01"}',
      '{"i":3,"s":"c,d","d":"NaN","b":"TRUE","_corrupt_record":"3,\\"c,d\\",NaN,TRUE,2024-01-01 10:00:00.123456,2024/01/01"}',
      '{"i":4,"s":"\\"e\\"\\"f\\"","d":"Infinity","b":"false","_corrupt_record":"4,\\"e\\"\\"f\\",Infinity,false,2024-01-01,20240101"}',
      '{"i":6,"d":"Inf","b":"1","_corrupt_record":"6,\\"\\",Inf,1,\\"\\",\\"\\""}',
      '{"i":7,"s":"\\\\\\"g\\\\\\"","d":"1e2","b":"yes","_corrupt_record":"7,\\\\\\"g\\\\\\",1e2,yes,1704103200,2024-01-01T00:00"}',
      '{"i":12,"s":"l","_corrupt_record":"12,\\"l"}',
      '{"s":"1","d":"true","_corrupt_record":"m\\",1,true,,"}',
      '{"i":16,"s":"\'q","d":"r\'","b":"1","_corrupt_record":"16,\'q,r\',1,true,,"}',
      '{"i":18,"s":"\\"s\\"t","d":"1","b":"true","_corrupt_record":"18,\\"s\\"t,1,true,,"}',
      '{"i":20,"s":"abc","_corrupt_record":"20,\\"abc"}',
      '{"i":21,"s":"\\"ab\\"c","_corrupt_record":"21,\\"ab\\"c"}',
      '{"i":22,"s":"a\\"","_corrupt_record":"22,\\"a\\"\\""}',
      '{"i":23,"s":"a\\"","_corrupt_record":"23,\\"a\\\\\\""}',
      '{"i":24,"s":"a","_corrupt_record":"24,\\"a\\\\"}',
      '{"i":25,"_corrupt_record":"25,\\"\\""}',
      '{"i":26,"s":"\\"","_corrupt_record":"26,\\"\\"\\""}',
      '{"i":27,"s":"a","_corrupt_record":"27,\\"a\\" "}',
      '{"i":28,"s":"\\"a\\"  b","_corrupt_record":"28,\\"a\\"  b"}',
      '{"i":29,"s":"\\"a\\"b\\"\\"c\\"","d":"1","_corrupt_record":"29,\\"a\\\\\\"b\\"\\"c\\",1"}',
      '{"i":30,"s":"a\\\\b","d":"1","_corrupt_record":"30,\\"a\\\\b\\",1"}',
      '{"i":31,"s":"a\\\\b","d":"1","_corrupt_record":"31,\\"a\\\\\\\\b\\",1"}',
      '{"i":33,"s":"\\"","d":"1","_corrupt_record":"33,\\"\\\\\\"\\",1"}',
      '{"i":34,"s":"a\\tb","d":"1","_corrupt_record":"34,\\"a\\tb\\" ,1"}',
      '{"i":35,"s":"\\"a\\"\\"b\\"\\"c\\"","d":"1","_corrupt_record":"35,\\"a\\"\\"b\\"\\"c\\",1"}',
      '{"i":36,"s":" \\"a\\"","d":"1","_corrupt_record":"36, \\"a\\",1"}',
      '{"i":37,"s":"a,b\\"\\"","d":"1","_corrupt_record":"37,\\"a,b\\"\\"\\",1"}',
      '{"i":38,"_corrupt_record":"38,\\"\\",\\"\\""}',
      '{"i":39,"s":"a\\"\\"\\"","d":"1","_corrupt_record":"39,\\"a\\"\\"\\"\\",1"}',
    ],
  ],
  [
    { escape: '"' },
    [
      '{"i":1,"s":"a","d":"1.5","b":"true","_corrupt_record":"1,a,1.5,true,2024-01-01 10:00:00,2024-01-01"}',
      '{"i":3,"s":"c,d","d":"NaN","b":"TRUE","_corrupt_record":"3,\\"c,d\\",NaN,TRUE,2024-01-01 10:00:00.123456,2024/01/01"}',
      '{"i":4,"s":"e\\"f","d":"Infinity","b":"false","_corrupt_record":"4,\\"e\\"\\"f\\",Infinity,false,2024-01-01,20240101"}',
      '{"i":6,"d":"Inf","b":"1","_corrupt_record":"6,\\"\\",Inf,1,\\"\\",\\"\\""}',
      '{"i":7,"s":"\\\\\\"g\\\\\\"","d":"1e2","b":"yes","_corrupt_record":"7,\\\\\\"g\\\\\\",1e2,yes,1704103200,2024-01-01T00:00"}',
      '{"i":12,"s":"l","_corrupt_record":"12,\\"l"}',
      '{"s":"1","d":"true","_corrupt_record":"m\\",1,true,,"}',
      '{"i":16,"s":"\'q","d":"r\'","b":"1","_corrupt_record":"16,\'q,r\',1,true,,"}',
      '{"i":18,"s":"\\"s\\"t","d":"1","b":"true","_corrupt_record":"18,\\"s\\"t,1,true,,"}',
      '{"i":20,"s":"abc","_corrupt_record":"20,\\"abc"}',
      '{"i":21,"s":"\\"ab\\"c","_corrupt_record":"21,\\"ab\\"c"}',
      '{"i":22,"s":"a\\"","_corrupt_record":"22,\\"a\\"\\""}',
      '{"i":23,"s":"a\\\\","_corrupt_record":"23,\\"a\\\\\\""}',
      '{"i":24,"s":"a\\\\","_corrupt_record":"24,\\"a\\\\"}',
      '{"i":25,"_corrupt_record":"25,\\"\\""}',
      '{"i":26,"s":"\\"","_corrupt_record":"26,\\"\\"\\""}',
      '{"i":27,"s":"a","_corrupt_record":"27,\\"a\\" "}',
      '{"i":28,"s":"\\"a\\"  b","_corrupt_record":"28,\\"a\\"  b"}',
      '{"i":29,"s":"\\"a\\\\\\"b\\"\\"c\\"","d":"1","_corrupt_record":"29,\\"a\\\\\\"b\\"\\"c\\",1"}',
      '{"i":30,"s":"a\\\\b","d":"1","_corrupt_record":"30,\\"a\\\\b\\",1"}',
      '{"i":31,"s":"a\\\\\\\\b","d":"1","_corrupt_record":"31,\\"a\\\\\\\\b\\",1"}',
      '{"i":33,"s":"\\\\\\",1","_corrupt_record":"33,\\"\\\\\\"\\",1"}',
      '{"i":34,"s":"a\\tb","d":"1","_corrupt_record":"34,\\"a\\tb\\" ,1"}',
      '{"i":35,"s":"a\\"b\\"c","d":"1","_corrupt_record":"35,\\"a\\"\\"b\\"\\"c\\",1"}',
      '{"i":36,"s":" \\"a\\"","d":"1","_corrupt_record":"36, \\"a\\",1"}',
      '{"i":37,"s":"a,b\\"","d":"1","_corrupt_record":"37,\\"a,b\\"\\"\\",1"}',
      '{"i":38,"_corrupt_record":"38,\\"\\",\\"\\""}',
      '{"i":39,"s":"a\\"\\",1","_corrupt_record":"39,\\"a\\"\\"\\"\\",1"}',
    ],
  ],
  [
    { multiLine: "true" },
    [
      '{"i":1,"s":"a","d":"1.5","b":"true","_corrupt_record":"1,a,1.5,true,2024-01-01 10:00:00,2024-01-01"}',
      '{"i":3,"s":"c,d","d":"NaN","b":"TRUE","_corrupt_record":"3,\\"c,d\\",NaN,TRUE,2024-01-01 10:00:00.123456,2024/01/01"}',
      '{"i":4,"s":"\\"e\\"\\"f\\"","d":"Infinity","b":"false","_corrupt_record":"4,\\"e\\"\\"f\\",Infinity,false,2024-01-01,20240101"}',
      '{"i":6,"d":"Inf","b":"1","_corrupt_record":"6,\\"\\",Inf,1,\\"\\",\\"\\""}',
      '{"i":7,"s":"\\\\\\"g\\\\\\"","d":"1e2","b":"yes","_corrupt_record":"7,\\\\\\"g\\\\\\",1e2,yes,1704103200,2024-01-01T00:00"}',
      '{"i":12,"s":"l\\nm","d":"1","b":"true","_corrupt_record":"12,\\"l\\nm\\",1,true,,"}',
      '{"i":16,"s":"\'q","d":"r\'","b":"1","_corrupt_record":"16,\'q,r\',1,true,,"}',
      '{"i":18,"s":"\\"s\\"t","d":"1","b":"true","_corrupt_record":"18,\\"s\\"t,1,true,,"}',
      '{"i":20,"s":"\\"abc\\n21,\\"ab\\"c","_corrupt_record":"20,\\"abc\\n21,\\"ab\\"c"}',
      '{"i":22,"s":"a\\"","_corrupt_record":"22,\\"a\\"\\""}',
      '{"i":23,"s":"\\"a\\"\\n24,\\"a\\\\","_corrupt_record":"23,\\"a\\\\\\"\\n24,\\"a\\\\"}',
      '{"i":25,"_corrupt_record":"25,\\"\\""}',
      '{"i":26,"s":"\\"","_corrupt_record":"26,\\"\\"\\""}',
      '{"i":27,"s":"a","_corrupt_record":"27,\\"a\\" "}',
      '{"i":28,"s":"\\"a\\"  b","_corrupt_record":"28,\\"a\\"  b"}',
      '{"i":29,"s":"\\"a\\"b\\"\\"c\\"","d":"1","_corrupt_record":"29,\\"a\\\\\\"b\\"\\"c\\",1"}',
      '{"i":30,"s":"a\\\\b","d":"1","_corrupt_record":"30,\\"a\\\\b\\",1"}',
      '{"i":31,"s":"a\\\\b","d":"1","_corrupt_record":"31,\\"a\\\\\\\\b\\",1"}',
      '{"i":33,"s":"\\"","d":"1","_corrupt_record":"33,\\"\\\\\\"\\",1"}',
      '{"i":34,"s":"a\\tb","d":"1","_corrupt_record":"34,\\"a\\tb\\" ,1"}',
      '{"i":35,"s":"\\"a\\"\\"b\\"\\"c\\"","d":"1","_corrupt_record":"35,\\"a\\"\\"b\\"\\"c\\",1"}',
      '{"i":36,"s":" \\"a\\"","d":"1","_corrupt_record":"36, \\"a\\",1"}',
      '{"i":37,"s":"a,b\\"\\"","d":"1","_corrupt_record":"37,\\"a,b\\"\\"\\",1"}',
      '{"i":38,"_corrupt_record":"38,\\"\\",\\"\\""}',
      '{"i":39,"s":"a\\"\\"\\"","d":"1","_corrupt_record":"39,\\"a\\"\\"\\"\\",1"}',
    ],
  ],
  [
    { ignoreTrailingWhiteSpace: "true", ignoreLeadingWhiteSpace: "true" },
    [
      '{"i":1,"s":"a","d":"1.5","b":"true","_corrupt_record":"1,a,1.5,true,2024-01-01 10:00:00,2024-01-01"}',
      '{"i":3,"s":"c,d","d":"NaN","b":"TRUE","_corrupt_record":"3,\\"c,d\\",NaN,TRUE,2024-01-01 10:00:00.123456,2024/01/01"}',
      '{"i":4,"s":"\\"e\\"\\"f\\"","d":"Infinity","b":"false","_corrupt_record":"4,\\"e\\"\\"f\\",Infinity,false,2024-01-01,20240101"}',
      '{"i":6,"d":"Inf","b":"1","_corrupt_record":"6,\\"\\",Inf,1,\\"\\",\\"\\""}',
      '{"i":7,"s":"\\\\\\"g\\\\\\"","d":"1e2","b":"yes","_corrupt_record":"7,\\\\\\"g\\\\\\",1e2,yes,1704103200,2024-01-01T00:00"}',
      '{"i":12,"s":"l","_corrupt_record":"12,\\"l"}',
      '{"s":"1","d":"true","_corrupt_record":"m\\",1,true,,"}',
      '{"i":16,"s":"\'q","d":"r\'","b":"1","_corrupt_record":"16,\'q,r\',1,true,,"}',
      '{"i":18,"s":"\\"s\\"t","d":"1","b":"true","_corrupt_record":"18,\\"s\\"t,1,true,,"}',
      '{"i":20,"s":"abc","_corrupt_record":"20,\\"abc"}',
      '{"i":21,"s":"\\"ab\\"c","_corrupt_record":"21,\\"ab\\"c"}',
      '{"i":22,"s":"a\\"","_corrupt_record":"22,\\"a\\"\\""}',
      '{"i":23,"s":"a\\"","_corrupt_record":"23,\\"a\\\\\\""}',
      '{"i":24,"s":"a","_corrupt_record":"24,\\"a\\\\"}',
      '{"i":25,"_corrupt_record":"25,\\"\\""}',
      '{"i":26,"s":"\\"","_corrupt_record":"26,\\"\\"\\""}',
      '{"i":27,"s":"a","_corrupt_record":"27,\\"a\\" "}',
      '{"i":28,"s":"\\"a\\"  b","_corrupt_record":"28,\\"a\\"  b"}',
      '{"i":29,"s":"\\"a\\"b\\"\\"c\\"","d":"1","_corrupt_record":"29,\\"a\\\\\\"b\\"\\"c\\",1"}',
      '{"i":30,"s":"a\\\\b","d":"1","_corrupt_record":"30,\\"a\\\\b\\",1"}',
      '{"i":31,"s":"a\\\\b","d":"1","_corrupt_record":"31,\\"a\\\\\\\\b\\",1"}',
      '{"i":33,"s":"\\"","d":"1","_corrupt_record":"33,\\"\\\\\\"\\",1"}',
      '{"i":34,"s":"a\\tb","d":"1","_corrupt_record":"34,\\"a\\tb\\" ,1"}',
      '{"i":35,"s":"\\"a\\"\\"b\\"\\"c\\"","d":"1","_corrupt_record":"35,\\"a\\"\\"b\\"\\"c\\",1"}',
      '{"i":36,"s":"a","d":"1","_corrupt_record":"36, \\"a\\",1"}',
      '{"i":37,"s":"a,b\\"\\"","d":"1","_corrupt_record":"37,\\"a,b\\"\\"\\",1"}',
      '{"i":38,"_corrupt_record":"38,\\"\\",\\"\\""}',
      '{"i":39,"s":"a\\"\\"\\"","d":"1","_corrupt_record":"39,\\"a\\"\\"\\"\\",1"}',
    ],
  ],
  [
    { quote: "'" },
    [
      '{"i":1,"s":"a","d":"1.5","b":"true","_corrupt_record":"1,a,1.5,true,2024-01-01 10:00:00,2024-01-01"}',
      '{"i":3,"s":"\\"c","d":"d\\"","b":"NaN","_corrupt_record":"3,\\"c,d\\",NaN,TRUE,2024-01-01 10:00:00.123456,2024/01/01"}',
      '{"i":4,"s":"\\"e\\"\\"f\\"","d":"Infinity","b":"false","_corrupt_record":"4,\\"e\\"\\"f\\",Infinity,false,2024-01-01,20240101"}',
      '{"i":6,"s":"\\"\\"","d":"Inf","b":"1","_corrupt_record":"6,\\"\\",Inf,1,\\"\\",\\"\\""}',
      '{"i":7,"s":"\\\\\\"g\\\\\\"","d":"1e2","b":"yes","_corrupt_record":"7,\\\\\\"g\\\\\\",1e2,yes,1704103200,2024-01-01T00:00"}',
      '{"i":12,"s":"\\"l","_corrupt_record":"12,\\"l"}',
      '{"s":"1","d":"true","_corrupt_record":"m\\",1,true,,"}',
      '{"i":16,"s":"q,r","d":"1","b":"true","_corrupt_record":"16,\'q,r\',1,true,,"}',
      '{"i":18,"s":"\\"s\\"t","d":"1","b":"true","_corrupt_record":"18,\\"s\\"t,1,true,,"}',
      '{"i":20,"s":"\\"abc","_corrupt_record":"20,\\"abc"}',
      '{"i":21,"s":"\\"ab\\"c","_corrupt_record":"21,\\"ab\\"c"}',
      '{"i":22,"s":"\\"a\\"\\"","_corrupt_record":"22,\\"a\\"\\""}',
      '{"i":23,"s":"\\"a\\\\\\"","_corrupt_record":"23,\\"a\\\\\\""}',
      '{"i":24,"s":"\\"a\\\\","_corrupt_record":"24,\\"a\\\\"}',
      '{"i":25,"s":"\\"\\"","_corrupt_record":"25,\\"\\""}',
      '{"i":26,"s":"\\"\\"\\"","_corrupt_record":"26,\\"\\"\\""}',
      '{"i":27,"s":"\\"a\\" ","_corrupt_record":"27,\\"a\\" "}',
      '{"i":28,"s":"\\"a\\"  b","_corrupt_record":"28,\\"a\\"  b"}',
      '{"i":29,"s":"\\"a\\\\\\"b\\"\\"c\\"","d":"1","_corrupt_record":"29,\\"a\\\\\\"b\\"\\"c\\",1"}',
      '{"i":30,"s":"\\"a\\\\b\\"","d":"1","_corrupt_record":"30,\\"a\\\\b\\",1"}',
      '{"i":31,"s":"\\"a\\\\\\\\b\\"","d":"1","_corrupt_record":"31,\\"a\\\\\\\\b\\",1"}',
      '{"i":33,"s":"\\"\\\\\\"\\"","d":"1","_corrupt_record":"33,\\"\\\\\\"\\",1"}',
      '{"i":34,"s":"\\"a\\tb\\" ","d":"1","_corrupt_record":"34,\\"a\\tb\\" ,1"}',
      '{"i":35,"s":"\\"a\\"\\"b\\"\\"c\\"","d":"1","_corrupt_record":"35,\\"a\\"\\"b\\"\\"c\\",1"}',
      '{"i":36,"s":" \\"a\\"","d":"1","_corrupt_record":"36, \\"a\\",1"}',
      '{"i":37,"s":"\\"a","d":"b\\"\\"\\"","b":"1"}',
      '{"i":38,"s":"\\"\\"","d":"\\"\\"","_corrupt_record":"38,\\"\\",\\"\\""}',
      '{"i":39,"s":"\\"a\\"\\"\\"\\"","d":"1","_corrupt_record":"39,\\"a\\"\\"\\"\\",1"}',
    ],
  ],
];

describe("CSV quoted values as Spark reads them (PySpark 4.3's rows)", () => {
  const dir = tempDir();
  writeFileSync(join(dir, "part-0.csv"), INPUT);
  const session = Session.builder().getOrCreate();
  const schema = "i INT, s STRING, d STRING, b STRING, _corrupt_record STRING";

  for (const [options, expected] of EXPECTED) {
    it(`options ${JSON.stringify(options)}`, async () => {
      const rows = await session.read
        .schema(schema)
        .options(options)
        .csv(dir)
        .select(F.to_json(F.struct(F.col("*"))).alias("j"))
        .collect();
      assert.deepEqual(
        rows.map((r) => r.j),
        expected,
      );
    });
  }

  it("the text path (a two-character separator) reads quoted values the same way", async () => {
    const d = tempDir();
    writeFileSync(join(d, "part-0.csv"), 'x||"a""b"||"c" ||"d"e||"f\\"g"\n');
    const [r] = await session.read.schema("a STRING, b STRING, c STRING, e STRING, f STRING").option("sep", "||").csv(d).collect();
    assert.deepEqual(r, { a: "x", b: '"a""b"', c: "c", e: '"d"e', f: 'f"g' });
  });
});
