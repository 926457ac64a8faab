"""The output checksum, Python twin of bench/lib/canonical.ts.

Each row becomes a JSON array of canonical values, the lines are sorted (code-point order) and
hashed with SHA-256, joined by "\\n".

    BIGINT / INT   decimal digits              TIMESTAMP   epoch microseconds (integer)
    DOUBLE         shortest round-trip digits as "d.ddde<exp>" ("9.08e1", "1e7", "0e0")
    STRING         the JSON string             BOOLEAN     true / false        NULL  null
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import math
from decimal import Decimal

EPOCH = dt.datetime(1970, 1, 1)
ONE_MICRO = dt.timedelta(microseconds=1)


def canon_double(x: float) -> str:
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Inf" if x > 0 else "-Inf"
    if x == 0:
        return "0e0"
    sign, digits, exp = Decimal(repr(x)).normalize().as_tuple()
    ds = "".join(map(str, digits))
    e = exp + len(ds) - 1
    m = ds[0] + ("." + ds[1:] if len(ds) > 1 else "")
    return f"{'-' if sign else ''}{m}e{e}"


def canon_for_type(type_name: str):
    if type_name == "timestamp":
        # Session and process time zone are UTC: collect() returns naive UTC datetimes.
        return lambda v: None if v is None else (v - EPOCH) // ONE_MICRO
    if type_name == "double":
        return lambda v: None if v is None else canon_double(v)
    if type_name in ("bigint", "int"):
        return lambda v: None if v is None else int(v)
    return lambda v: v


class Checksum:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.count = 0

    def add_rows(self, rows, schema) -> None:
        canons = [canon_for_type(f.dataType.simpleString()) for f in schema.fields]
        dumps = json.dumps
        for r in rows:
            self.lines.append(dumps([c(v) for c, v in zip(canons, r)], ensure_ascii=False, separators=(",", ":")))
        self.count += len(rows)

    @property
    def rows(self) -> int:
        return self.count

    def digest(self) -> str:
        # Sort, hash and drop the lines (the foreachBatch function may outlive the query).
        lines, self.lines = self.lines, []
        lines.sort()
        return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()
