/*
 * JSON lines → column buffers, compiled to WebAssembly (scripts/build-wasm.sh) and driven by
 * json-wasm.ts. It decodes flat records (one object per line) whose wanted fields are
 * BOOLEAN, INT, BIGINT, DOUBLE, STRING, TIMESTAMP or DATE straight into per-column buffers in
 * this module's memory, which JS reads as typed arrays. It mirrors the byte scanner
 * (json-scan.ts) and JSON.parse: anything it does not fully understand — a nested value in a
 * wanted field, an escape in a key, a lone surrogate, a number or string that a column would
 * have to convert in an unusual way, a value that would make the record malformed — stops the
 * scan at that line, and JS decodes the line on its existing path. So every row it produces is
 * one the JS path would produce identically, and every other line is the JS path's.
 *
 * No libc beyond malloc/memcpy/memcmp; the one import is JS's Number() for numbers that need
 * correct rounding beyond what one exact IEEE operation gives.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wasm_simd128.h>

#define EXPORT(name) __attribute__((export_name(name)))

/* The one import: Number(text) of a JSON number token's bytes. */
__attribute__((import_module("arus"), import_name("number"))) double js_number(const uint8_t *s, int32_t len);

enum { T_BOOLEAN = 1, T_INT = 2, T_BIGINT = 3, T_DOUBLE = 4, T_STRING = 5, T_TIMESTAMP = 6, T_DATE = 7 };
/* Outcome of one scan call (see arus_scan). */
enum { S_END = 0, S_FULL = 1, S_FALLBACK = 2, S_NOMEM = 3 };
/* Flags of arus_setup. */
enum { F_FAST_TIMESTAMPS = 1, F_FAST_DATES = 2 };

#define MAX_DEPTH 512 /* as json-scan.ts: deeper unread values go to JSON.parse */

typedef struct {
  int32_t type;
  int32_t name_len;
  const uint8_t *name;
  /* Per row: the value (8 bytes for BIGINT/DOUBLE/TIMESTAMP, 4 for INT/DATE, 1 for BOOLEAN;
     for STRING 1 byte, 1 if the bytes are ASCII) and validity (1 = present). */
  uint8_t *values;
  uint8_t *valid;
  /* STRING: the batch's rows packed one after another in `text` as they are decoded (a NULL
     row is empty), row r at [soff[r], soff[r + 1]): JS copies a column with one copy. */
  int32_t *soff;
  uint8_t *text;
  size_t text_cap;
} Column;

static Column *cols;
static int32_t ncols;
static int32_t cap_rows;
static int32_t flags;
static int32_t hint;
/* Rows decoded into the column buffers since the last arus_reset (one batch, over scan calls). */
static int32_t batch_rows;
/* A STRING column's text could not grow: the scan stops with S_NOMEM. */
static int32_t out_of_memory;

static uint8_t *input;
static int32_t input_cap;
static uint8_t *heap; /* unescaped string bytes of the current scan call */
static uint8_t *heap_top;

/* Read by JS after each arus_scan: rows in the batch, lines consumed, position reached, status;
   per column of the batch: NULL rows, and (STRING) 1 while every row is ASCII. */
static int32_t result[4];
static int32_t *nulls;
static int32_t *ascii_cols;

/* ---------------------------------------------------------------- setup */

EXPORT("arus_alloc") void *arus_alloc(int32_t n) { return malloc((size_t)(n > 0 ? n : 1)); }

/*
 * Columns from a description JS wrote at `desc`: per column int32 type, int32 name length, then
 * the names' bytes concatenated at `names`. Row buffers for `rows` rows. Returns 0 on failure.
 */
EXPORT("arus_setup") int32_t arus_setup(int32_t n, const int32_t *desc, const uint8_t *names, int32_t rows, int32_t fl) {
  cols = calloc((size_t)n, sizeof(Column));
  nulls = calloc((size_t)(n > 0 ? n : 1), sizeof(int32_t));
  ascii_cols = calloc((size_t)(n > 0 ? n : 1), sizeof(int32_t));
  if (!cols || !nulls || !ascii_cols) return 0;
  ncols = n;
  cap_rows = rows;
  flags = fl;
  hint = 0;
  for (int32_t i = 0; i < n; i++) {
    Column *c = &cols[i];
    c->type = desc[2 * i];
    c->name_len = desc[2 * i + 1];
    c->name = names;
    names += c->name_len;
    c->values = malloc((size_t)rows * 8);
    c->valid = malloc((size_t)rows);
    if (!c->values || !c->valid) return 0;
    ascii_cols[i] = 1;
    if (c->type == T_STRING) {
      c->soff = calloc((size_t)rows + 1, 4);
      c->text_cap = 64 << 10;
      c->text = malloc(c->text_cap + 16); /* + 16: short strings are copied 16 bytes at a time */
      if (!c->soff || !c->text) return 0;
    }
  }
  batch_rows = 0;
  return 1;
}

EXPORT("arus_values") uint8_t *arus_values(int32_t i) { return cols[i].values; }
EXPORT("arus_valid") uint8_t *arus_valid(int32_t i) { return cols[i].valid; }
EXPORT("arus_result") int32_t *arus_result(void) { return result; }
EXPORT("arus_soff") int32_t *arus_soff(int32_t i) { return cols[i].soff; }
/* Where STRING column i's text is now (it moves when it grows). */
EXPORT("arus_text") uint8_t *arus_text(int32_t i) { return cols[i].text; }
EXPORT("arus_ascii") int32_t *arus_ascii(void) { return ascii_cols; }

/* Starts the next batch: JS has copied the rows out. */
EXPORT("arus_reset") void arus_reset(void) {
  batch_rows = 0;
  for (int32_t i = 0; i < ncols; i++) {
    nulls[i] = 0;
    ascii_cols[i] = 1;
  }
}
EXPORT("arus_nulls") int32_t *arus_nulls(void) { return nulls; }

/* An input buffer of at least n bytes (and a string heap as large); null if memory ran out. */
EXPORT("arus_input") uint8_t *arus_input(int32_t n) {
  if (n > input_cap) {
    free(input);
    free(heap);
    /* +16: the SIMD string scan may look at up to 15 bytes past the end (never using them). */
    input = malloc((size_t)n + 16);
    heap = malloc((size_t)n + 16);
    if (!input || !heap) {
      input_cap = 0;
      return 0;
    }
    input_cap = n;
  }
  return input;
}

/* ---------------------------------------------------------------- scanning */

static const uint8_t *p;   /* current position */
static const uint8_t *end; /* end of the input */

static inline int is_digit(uint8_t c) { return (uint8_t)(c - '0') <= 9; }
static inline int is_hex(uint8_t c) { return is_digit(c) || (uint8_t)((c | 0x20) - 'a') <= 5; }
/*
 * A `\r` is JSON whitespace, but one not followed by `\n` also ends a line for Hadoop's reader:
 * it is not skipped here, so its line falls back and JS sees it (json-wasm.ts).
 */
static inline void skip_space(void) {
  while (p < end && *p <= ' ') {
    uint8_t c = *p;
    if (c == ' ' || c == '\t' || (c == '\r' && p + 1 < end && p[1] == '\n')) p++;
    else break;
  }
}

/*
 * From q, the first byte that is a quote, a backslash or a control character (16 bytes at a
 * time); ORs the bytes passed over into *high. May return a position past end (caller checks).
 */
static inline const uint8_t *string_stop(const uint8_t *q, uint8_t *high) {
  const v128_t quote = wasm_i8x16_splat('"');
  const v128_t backslash = wasm_i8x16_splat('\\');
  const v128_t space = wasm_i8x16_splat(0x20);
  v128_t seen = wasm_i8x16_splat(0);
  while (q + 16 <= end) {
    v128_t b = wasm_v128_load(q);
    v128_t stop = wasm_v128_or(wasm_v128_or(wasm_i8x16_eq(b, quote), wasm_i8x16_eq(b, backslash)), wasm_u8x16_lt(b, space));
    uint32_t mask = wasm_i8x16_bitmask(stop);
    if (mask != 0) {
      int k = __builtin_ctz(mask);
      /* the bytes before the stop: keep only lanes < k for the ASCII check */
      uint32_t before = wasm_i8x16_bitmask(b) & ((1u << k) - 1);
      if (before) *high |= 0x80;
      *high |= wasm_i8x16_bitmask(seen) ? 0x80 : 0;
      return q + k;
    }
    seen = wasm_v128_or(seen, b);
    q += 16;
  }
  if (wasm_i8x16_bitmask(seen)) *high |= 0x80;
  return q;
}

/*
 * From q, the first byte that is a quote, a backslash, a control character or above 0x7f (a
 * signed compare flags both of the last two at once), 32 bytes at a time.
 */
static inline const uint8_t *skip_plain(const uint8_t *q) {
  const v128_t quote = wasm_i8x16_splat('"');
  const v128_t backslash = wasm_i8x16_splat('\\');
  const v128_t space = wasm_i8x16_splat(0x20);
  while (q + 32 <= end) {
    v128_t a = wasm_v128_load(q), b = wasm_v128_load(q + 16);
    uint32_t ma = wasm_i8x16_bitmask(wasm_v128_or(wasm_v128_or(wasm_i8x16_eq(a, quote), wasm_i8x16_eq(a, backslash)), wasm_i8x16_lt(a, space)));
    uint32_t mb = wasm_i8x16_bitmask(wasm_v128_or(wasm_v128_or(wasm_i8x16_eq(b, quote), wasm_i8x16_eq(b, backslash)), wasm_i8x16_lt(b, space)));
    uint32_t m = ma | (mb << 16);
    if (m != 0) return q + __builtin_ctz(m);
    q += 32;
  }
  while (q < end && *q != '"' && *q != '\\' && (uint8_t)(*q - 0x20) < 0x60) q++;
  return q;
}

/* A string without escapes or control characters: its contents [*s, *e); 0 otherwise (p unmoved). */
static int plain_string(const uint8_t **s, const uint8_t **e, int *ascii) {
  uint8_t high = 0;
  const uint8_t *q = string_stop(p + 1, &high);
  for (;;) {
    if (q >= end) return 0;
    uint8_t c = *q;
    if (c == '"') break;
    if (c == '\\' || c < 0x20) return 0;
    high |= c;
    q++;
  }
  *s = p + 1;
  *e = q;
  *ascii = high < 0x80;
  p = q + 1;
  return 1;
}

static inline int hex4(const uint8_t *q) {
  int v = 0;
  for (int k = 0; k < 4; k++) {
    uint8_t c = q[k];
    v = v * 16 + (is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
  }
  return v;
}

/*
 * A string with escapes, unescaped into the heap as UTF-8 (contents [*s, *e)). 0 for what
 * JSON.parse rejects and for lone surrogates (a JS string UTF-8 cannot carry).
 */
static int escaped_string(const uint8_t **s, const uint8_t **e, int *ascii) {
  const uint8_t *q = p + 1;
  uint8_t *o = heap_top;
  uint8_t high = 0;
  for (;;) {
    if (q >= end) return 0;
    uint8_t c = *q;
    if (c == '"') break;
    if (c < 0x20) return 0;
    if (c != '\\') {
      high |= c;
      *o++ = c;
      q++;
      continue;
    }
    if (q + 1 >= end) return 0;
    uint8_t x = q[1];
    q += 2;
    switch (x) {
      case '"': *o++ = '"'; continue;
      case '\\': *o++ = '\\'; continue;
      case '/': *o++ = '/'; continue;
      case 'b': *o++ = '\b'; continue;
      case 'f': *o++ = '\f'; continue;
      case 'n': *o++ = '\n'; continue;
      case 'r': *o++ = '\r'; continue;
      case 't': *o++ = '\t'; continue;
      case 'u': break;
      default: return 0;
    }
    if (q + 4 > end || !is_hex(q[0]) || !is_hex(q[1]) || !is_hex(q[2]) || !is_hex(q[3])) return 0;
    uint32_t cp = (uint32_t)hex4(q);
    q += 4;
    if (cp >= 0xDC00 && cp <= 0xDFFF) return 0; /* lone low surrogate */
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      if (q + 6 > end || q[0] != '\\' || q[1] != 'u' || !is_hex(q[2]) || !is_hex(q[3]) || !is_hex(q[4]) || !is_hex(q[5])) return 0;
      uint32_t lo = (uint32_t)hex4(q + 2);
      if (lo < 0xDC00 || lo > 0xDFFF) return 0;
      q += 6;
      cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    }
    if (cp < 0x80) {
      *o++ = (uint8_t)cp;
    } else if (cp < 0x800) {
      *o++ = (uint8_t)(0xC0 | (cp >> 6));
      *o++ = (uint8_t)(0x80 | (cp & 0x3F));
      high = 0x80;
    } else if (cp < 0x10000) {
      *o++ = (uint8_t)(0xE0 | (cp >> 12));
      *o++ = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
      *o++ = (uint8_t)(0x80 | (cp & 0x3F));
      high = 0x80;
    } else {
      *o++ = (uint8_t)(0xF0 | (cp >> 18));
      *o++ = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
      *o++ = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
      *o++ = (uint8_t)(0x80 | (cp & 0x3F));
      high = 0x80;
    }
  }
  *s = heap_top;
  *e = o;
  *ascii = high < 0x80;
  heap_top = o;
  p = q + 1;
  return 1;
}

/* Skips (and validates) a string, escapes included, as JSON.parse would accept it. */
static int skip_string(void) {
  const uint8_t *q = p + 1;
  for (;;) {
    q = skip_plain(q);
    if (q >= end) return 0;
    uint8_t c = *q;
    if (c == '"') break;
    if (c < 0x20) return 0;
    if (c == '\\') {
      if (q + 1 >= end) return 0;
      uint8_t x = q[1];
      if (x == 'u') {
        if (q + 6 > end || !is_hex(q[2]) || !is_hex(q[3]) || !is_hex(q[4]) || !is_hex(q[5])) return 0;
        q += 6;
        continue;
      }
      if (!(x == '"' || x == '\\' || x == '/' || x == 'b' || x == 'f' || x == 'n' || x == 'r' || x == 't')) return 0;
      q += 2;
      continue;
    }
    q++;
  }
  p = q + 1;
  return 1;
}

/* A number token (strict JSON grammar). */
typedef struct {
  const uint8_t *start, *stop;
  int neg;
  int integral; /* no fraction, no exponent */
  int digits;   /* integer digits (integral numbers) */
  uint64_t value; /* |value| of an integral number of at most 19 digits */
} Num;

static inline __attribute__((always_inline)) int number(Num *n) {
  const uint8_t *q = p;
  n->start = q;
  n->neg = 0;
  n->integral = 1;
  n->digits = 0;
  n->value = 0;
  if (*q == '-') {
    n->neg = 1;
    q++;
  }
  if (q >= end || !is_digit(*q)) return 0;
  if (*q == '0') {
    q++;
    n->digits = 1;
  } else {
    uint64_t v = 0;
    int d = 0;
    /* 8 bytes at a time: how many of them are digits (a byte is one iff neither c - '0' nor
       c + 0x46 sets its top bit; a borrow or carry only comes from a lower non-digit). */
    while (end - q >= 8) {
      uint64_t w;
      memcpy(&w, q, 8);
      uint64_t non = ((w - 0x3030303030303030ull) | (w + 0x4646464646464646ull)) & 0x8080808080808080ull;
      int k = non ? __builtin_ctzll(non) >> 3 : 8;
      for (int j = 0; j < k; j++, d++)
        if (d < 19) v = v * 10 + (uint64_t)(q[j] - '0');
      q += k;
      if (k < 8) goto counted;
    }
    while (q < end && is_digit(*q)) {
      if (d < 19) v = v * 10 + (uint64_t)(*q - '0');
      d++;
      q++;
    }
  counted:
    n->value = v;
    n->digits = d;
  }
  if (q < end && *q == '.') {
    n->integral = 0;
    q++;
    const uint8_t *f = q;
    while (q < end && is_digit(*q)) q++;
    if (q == f) return 0;
  }
  if (q < end && (*q == 'e' || *q == 'E')) {
    n->integral = 0;
    q++;
    if (q < end && (*q == '+' || *q == '-')) q++;
    const uint8_t *f = q;
    while (q < end && is_digit(*q)) q++;
    if (q == f) return 0;
  }
  n->stop = q;
  p = q;
  return 1;
}

static const double POW10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/*
 * The double JSON.parse gives a number token: correctly rounded. Up to 15 significant digits
 * and a power of ten up to 22 the result of one exact-operand IEEE operation is correctly
 * rounded already; anything else goes to the engine's Number() (an import).
 */
/* An integer token's value as a double: never -0.0 (Jackson reads `-0` as the int 0). */
static inline double integer_value(const Num *n) {
  double v = (double)(int64_t)n->value;
  return n->neg && n->value != 0 ? -v : v;
}

static int double_of(const Num *n, double *out) {
  if (n->integral && n->digits <= 15) {
    *out = integer_value(n);
    return 1;
  }
  const uint8_t *q = n->start + n->neg;
  uint64_t m = 0;
  int sig = 0, exp10 = 0, ok = 1;
  for (; q < n->stop && is_digit(*q); q++) {
    if (m == 0 && *q == '0') continue;
    if (sig < 19) m = m * 10 + (uint64_t)(*q - '0');
    else ok = 0;
    sig++;
  }
  if (q < n->stop && *q == '.') {
    for (q++; q < n->stop && is_digit(*q); q++) {
      if (m == 0 && *q == '0') {
        exp10--;
        continue;
      }
      if (sig < 19) m = m * 10 + (uint64_t)(*q - '0');
      else ok = 0;
      sig++;
      exp10--;
    }
  }
  if (q < n->stop) { /* exponent */
    q++;
    int eneg = 0;
    if (*q == '+' || *q == '-') eneg = *q++ == '-';
    int e = 0;
    for (; q < n->stop; q++) {
      if (e > 100000) ok = 0;
      else e = e * 10 + (*q - '0');
    }
    exp10 += eneg ? -e : e;
  }
  if (ok && sig <= 15 && exp10 >= -22 && exp10 <= 22) {
    double v = (double)m;
    v = exp10 < 0 ? v / POW10[-exp10] : v * POW10[exp10];
    *out = n->neg ? -v : v;
    return 1;
  }
  /* The engine's own correctly rounded conversion, as the JS scanner uses (rare: long or tiny numbers). */
  *out = js_number(n->start, (int32_t)(n->stop - n->start));
  return 1;
}

/* `true`, `false`, `null`: 1, 0, 2; -1 if none is here. */
static int literal(void) {
  const uint8_t *q = p;
  if (q + 4 <= end && q[0] == 't' && q[1] == 'r' && q[2] == 'u' && q[3] == 'e') {
    p = q + 4;
    return 1;
  }
  if (q + 5 <= end && q[0] == 'f' && q[1] == 'a' && q[2] == 'l' && q[3] == 's' && q[4] == 'e') {
    p = q + 5;
    return 0;
  }
  if (q + 4 <= end && q[0] == 'n' && q[1] == 'u' && q[2] == 'l' && q[3] == 'l') {
    p = q + 4;
    return 2;
  }
  return -1;
}

static int skip_value(int depth) {
  if (depth > MAX_DEPTH || p >= end) return 0;
  uint8_t c = *p;
  if (c == '"') return skip_string();
  if (c == '-' || is_digit(c)) {
    Num n;
    return number(&n);
  }
  if (c == '{') {
    p++;
    skip_space();
    if (p < end && *p == '}') {
      p++;
      return 1;
    }
    for (;;) {
      if (p >= end || *p != '"' || !skip_string()) return 0;
      skip_space();
      if (p >= end || *p != ':') return 0;
      p++;
      skip_space();
      if (!skip_value(depth + 1)) return 0;
      skip_space();
      if (p >= end) return 0;
      uint8_t d = *p++;
      if (d == '}') return 1;
      if (d != ',') return 0;
      skip_space();
    }
  }
  if (c == '[') {
    p++;
    skip_space();
    if (p < end && *p == ']') {
      p++;
      return 1;
    }
    for (;;) {
      if (!skip_value(depth + 1)) return 0;
      skip_space();
      if (p >= end) return 0;
      uint8_t d = *p++;
      if (d == ']') return 1;
      if (d != ',') return 0;
      skip_space();
    }
  }
  return literal() >= 0;
}

/* ---------------------------------------------------------------- dates and timestamps */

static inline int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (calendar.ts daysFromCivil). */
static int64_t days_from_civil(int64_t year, int64_t month, int64_t day) {
  int64_t y = month <= 2 ? year - 1 : year;
  int64_t era = floor_div(y, 400);
  int64_t yoe = y - era * 400;
  int64_t mp = month > 2 ? month - 3 : month + 9;
  int64_t doy = (153 * mp + 2) / 5 + day - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

static int valid_date(int64_t y, int64_t m, int64_t d) {
  static const int8_t DAYS[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12 || d < 1) return 0;
  int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return d <= DAYS[m - 1] + (m == 2 && leap);
}

static inline int two(const uint8_t *b) {
  return is_digit(b[0]) && is_digit(b[1]) ? (b[0] - '0') * 10 + (b[1] - '0') : -1;
}

/* `yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z` → microseconds (byte-values.ts isoUtcMicros); 0 if another shape. */
/* The last `yyyy-MM-dd` a timestamp had and its days (timestamps in a file mostly share a day). */
static uint64_t last_date8;
static uint16_t last_date2;
static int64_t last_days;
static int have_last_date;

static int iso_utc_micros(const uint8_t *s, const uint8_t *e, double *out) {
  int64_t n = e - s;
  if (n < 20 || e[-1] != 'Z') return 0;
  if (s[10] != 'T' || s[13] != ':' || s[16] != ':') return 0;
  int hour = two(s + 11), minute = two(s + 14), second = two(s + 17);
  if (hour < 0 || minute < 0 || second < 0) return 0;
  if (hour > 23 || minute > 59 || second > 59) return 0;
  double micros = 0;
  if (n > 20) {
    if (s[19] != '.') return 0;
    int64_t digits = e - 1 - (s + 20);
    if (digits < 1 || digits > 9) return 0;
    int scale = 100000;
    for (const uint8_t *q = s + 20; q < e - 1; q++) {
      if (!is_digit(*q)) return 0;
      if (scale >= 1) micros += (*q - '0') * scale;
      scale /= 10;
    }
  }
  uint64_t date8;
  uint16_t date2;
  memcpy(&date8, s, 8);
  memcpy(&date2, s + 8, 2);
  int64_t days;
  if (have_last_date && date8 == last_date8 && date2 == last_date2) {
    days = last_days;
  } else {
    if (s[4] != '-' || s[7] != '-') return 0;
    int yh = two(s), yl = two(s + 2), month = two(s + 5), day = two(s + 8);
    if (yh < 0 || yl < 0 || month < 0 || day < 0) return 0;
    int year = yh * 100 + yl;
    if (!valid_date(year, month, day)) return 0;
    days = days_from_civil(year, month, day);
    last_date8 = date8;
    last_date2 = date2;
    last_days = days;
    have_last_date = 1;
  }
  int64_t secs = days * 86400 + hour * 3600 + minute * 60 + second;
  *out = (double)secs * 1e6 + micros; /* in doubles, in this order, as the JS expression */
  return 1;
}

/*
 * From a string's first byte s: the closing quote of `...(19 bytes)[.digits]Z"`, or 0 (also
 * when fewer than 32 bytes are left: the long way is exact anyway).
 */
static inline const uint8_t *iso_end(const uint8_t *s) {
  if (end - s < 32) return 0;
  const uint8_t *q = s + 19;
  if (*q == '.') {
    q++;
    while (q < s + 30 && is_digit(*q)) q++;
  }
  return q[0] == 'Z' && q[1] == '"' ? q + 1 : 0;
}

/* Exactly `yyyy-MM-dd` → days (what parseDate gives that shape); 0 for anything else. */
static int iso_date(const uint8_t *s, const uint8_t *e, int32_t *out) {
  if (e - s != 10 || s[4] != '-' || s[7] != '-') return 0;
  int yh = two(s), yl = two(s + 2), month = two(s + 5), day = two(s + 8);
  if (yh < 0 || yl < 0 || month < 0 || day < 0) return 0;
  int year = yh * 100 + yl;
  if (!valid_date(year, month, day)) return 0;
  *out = (int32_t)days_from_civil(year, month, day);
  return 1;
}

/* ---------------------------------------------------------------- fields and lines */

/* Index of a wanted field by its key's bytes, or -1 (tries the field after the last one first). */
static int wanted(const uint8_t *s, const uint8_t *e) {
  int32_t len = (int32_t)(e - s);
  for (int32_t k = 0; k < ncols; k++) {
    int32_t w = hint + k;
    if (w >= ncols) w -= ncols;
    const Column *c = &cols[w];
    if (c->name_len == len && memcmp(c->name, s, (size_t)len) == 0) {
      hint = w + 1 == ncols ? 0 : w + 1;
      return w;
    }
  }
  return -1;
}

static inline void put_f64(Column *c, int32_t r, double v) { memcpy(c->values + 8 * (size_t)r, &v, 8); }
static inline void put_i32(Column *c, int32_t r, int32_t v) { memcpy(c->values + 4 * (size_t)r, &v, 4); }

static void set_null(Column *c, int32_t r) {
  c->valid[r] = 0;
  switch (c->type) {
    case T_BOOLEAN: c->values[r] = 0; break;
    case T_INT:
    case T_DATE: put_i32(c, r, 0); break;
    case T_STRING:
      c->values[r] = 1;
      c->soff[r + 1] = c->soff[r];
      break;
    default: put_f64(c, r, 0.0);
  }
}

/* Row r's text, copied to the column's text (again over a first value of a repeated key); 0 if memory ran out. */
static int set_text(Column *c, int32_t r, const uint8_t *s, const uint8_t *e, int ascii) {
  size_t at = (size_t)c->soff[r], len = (size_t)(e - s);
  if (at + len > c->text_cap) {
    size_t cap = 2 * c->text_cap;
    while (cap < at + len) cap *= 2;
    uint8_t *grown = realloc(c->text, cap + 16);
    if (!grown) {
      out_of_memory = 1;
      return 0;
    }
    c->text = grown;
    c->text_cap = cap;
  }
  /* Up to 16 bytes in one store: s has 16 readable bytes (the input and heap have 16 to spare). */
  if (len <= 16) wasm_v128_store(c->text + at, wasm_v128_load(s));
  else memcpy(c->text + at, s, len);
  c->soff[r + 1] = (int32_t)(at + len);
  c->valid[r] = 1;
  c->values[r] = (uint8_t)ascii;
  return 1;
}

/* A wanted field's value into row r; 0 when the line must take the JS path. */
static int field_value(Column *c, int32_t r) {
  uint8_t ch = *p;
  if (ch == '"') {
    const uint8_t *s, *e;
    int ascii;
    if (c->type == T_STRING) {
      if (!plain_string(&s, &e, &ascii) && !escaped_string(&s, &e, &ascii)) return 0;
      return set_text(c, r, s, e, ascii);
    }
    if (c->type == T_TIMESTAMP && (flags & F_FAST_TIMESTAMPS)) {
      double v;
      /* Where an ISO text's closing quote would be; iso_utc_micros then checks every byte
         before it, so a string it accepts is plain and ends there. Else the long way. */
      const uint8_t *q = iso_end(p + 1);
      if (q != 0) {
        s = p + 1;
        e = q;
        p = q + 1;
      } else if (!plain_string(&s, &e, &ascii)) {
        return 0;
      }
      if (!iso_utc_micros(s, e, &v)) return 0;
      put_f64(c, r, v);
      c->valid[r] = 1;
      return 1;
    }
    if (c->type == T_DATE && (flags & F_FAST_DATES)) {
      int32_t d;
      if (!plain_string(&s, &e, &ascii) || !iso_date(s, e, &d)) return 0;
      put_i32(c, r, d);
      c->valid[r] = 1;
      return 1;
    }
    return 0; /* a string in a numeric or boolean column: JS converts or rejects it */
  }
  if (ch == '-' || is_digit(ch)) {
    Num n;
    if (!number(&n)) return 0;
    switch (c->type) {
      case T_INT:
        if (!n.integral || n.digits > 10) return 0;
        if (n.neg ? n.value > 2147483648u : n.value > 2147483647u) return 0;
        put_i32(c, r, n.neg ? (int32_t)(-(int64_t)n.value) : (int32_t)n.value);
        break;
      case T_BIGINT:
        /* Beyond ±2^53 a double is not exact: the JS path decides. (Here and below the value
           fits an int64: its signed conversion is one instruction, the unsigned one is not.) */
        if (!n.integral || n.digits > 16 || n.value > 9007199254740992u) return 0;
        put_f64(c, r, integer_value(&n));
        break;
      case T_DOUBLE: {
        double v;
        if (!double_of(&n, &v)) return 0;
        put_f64(c, r, v);
        break;
      }
      case T_TIMESTAMP: /* integral epoch seconds */
        if (!n.integral || n.digits > 13 || n.value > 9223372036854u) return 0;
        put_f64(c, r, integer_value(&n) * 1e6);
        break;
      case T_STRING: /* JSON.stringify of the number: the same digits for short integers but -0 */
        if (!n.integral || n.digits > 15 || (n.neg && n.value == 0)) return 0;
        return set_text(c, r, n.start, n.stop, 1);
      default:
        return 0;
    }
    c->valid[r] = 1;
    return 1;
  }
  const uint8_t *s = p;
  int lit = literal();
  if (lit < 0) return 0; /* an object, an array, or a syntax error */
  if (lit == 2) {
    set_null(c, r);
    return 1;
  }
  if (c->type == T_BOOLEAN) {
    c->values[r] = (uint8_t)lit;
    c->valid[r] = 1;
    return 1;
  }
  if (c->type == T_STRING) {
    return set_text(c, r, s, p, 1);
  }
  return 0;
}

/*
 * The key the k-th member of the last record had (records mostly repeat one key order): its
 * bytes, closing quote and the colon right after it, zero-padded to 16, and its wanted field
 * (-1: none). len 0: none known.
 */
#define KNOWN_KEYS 32
typedef struct {
  v128_t quoted;
  int32_t len;
  int32_t field;
} KnownKey;
static KnownKey known[KNOWN_KEYS];

/*
 * At a key's opening quote: is it the known key k (the same bytes, then a quote)? Then it is
 * the same plain string and names the same field. Reads 16 bytes after the quote; the input
 * buffer has 16 bytes to spare past its end.
 */
static inline int is_known_key(const KnownKey *k) {
  if (k->len == 0 || end - p <= k->len + 2) return 0;
  uint32_t same = wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_load(p + 1), k->quoted));
  uint32_t want = (1u << (k->len + 2)) - 1;
  return (same & want) == want;
}

/* After the key [s, e) was read the long way (p past its closing quote). */
static void remember_key(KnownKey *k, const uint8_t *s, const uint8_t *e, int field) {
  int32_t len = (int32_t)(e - s);
  if (len < 1 || len > 14 || p >= end || *p != ':') {
    k->len = 0;
    return;
  }
  uint8_t b[16] = {0};
  memcpy(b, s, (size_t)len);
  b[len] = '"';
  b[len + 1] = ':';
  k->quoted = wasm_v128_load(b);
  k->len = len;
  k->field = field;
}

/* After `{`: members up to and including `}`; 0 → JS path. */
static int members(int32_t r) {
  skip_space();
  if (p < end && *p == '}') {
    p++;
    return 1;
  }
  for (int32_t m = 0;; m++) {
    if (p >= end || *p != '"') return 0;
    int w;
    KnownKey *k = m < KNOWN_KEYS ? &known[m] : 0;
    if (k && is_known_key(k)) {
      w = k->field;
      p += k->len + 3; /* past the colon */
    } else {
      const uint8_t *ks, *ke;
      int ascii;
      if (!plain_string(&ks, &ke, &ascii)) return 0; /* keys with escapes: JS path */
      w = wanted(ks, ke);
      if (k) remember_key(k, ks, ke, w);
      skip_space();
      if (p >= end || *p != ':') return 0;
      p++;
    }
    skip_space();
    if (p >= end) return 0;
    if (w >= 0 ? !field_value(&cols[w], r) : *p == '"' ? !skip_string() : !skip_value(0)) return 0;
    skip_space();
    if (p >= end) return 0;
    uint8_t c = *p++;
    if (c == '}') return 1;
    if (c != ',') return 0;
    skip_space();
  }
}

/*
 * Decodes lines of input[from, len) into the batch's next rows, until the input ends (S_END),
 * the batch has `max_rows` rows (S_FULL), a line needs the JS path (S_FALLBACK: the position is
 * that line's start) or a STRING column's text cannot grow (S_NOMEM). The rows stay until
 * arus_reset, over calls on other input (their strings are copied). result = {rows in the
 * batch, lines consumed, position, status}.
 */
EXPORT("arus_scan") int32_t arus_scan(int32_t len, int32_t from, int32_t max_rows) {
  const uint8_t *line = input + from;
  int32_t rows = batch_rows, lines = 0, status = S_END;
  end = input + len;
  heap_top = heap;
  out_of_memory = 0;
  if (max_rows > cap_rows) max_rows = cap_rows;
  while (line < end) {
    if (rows >= max_rows) {
      status = S_FULL;
      break;
    }
    p = line;
    skip_space();
    if (p == end || *p == '\n') { /* blank line */
      lines++;
      line = p + 1;
      continue;
    }
    int ok = 0;
    if (*p == '{') {
      for (int32_t i = 0; i < ncols; i++) cols[i].valid[rows] = 0;
      p++;
      if (members(rows)) {
        skip_space();
        ok = p == end || *p == '\n';
      }
      heap_top = heap;
    }
    if (!ok) {
      status = out_of_memory ? S_NOMEM : S_FALLBACK;
      break;
    }
    for (int32_t i = 0; i < ncols; i++) {
      Column *c = &cols[i];
      if (!c->valid[rows]) {
        set_null(c, rows);
        nulls[i]++;
      } else if (c->type == T_STRING) {
        ascii_cols[i] &= c->values[rows];
      }
    }
    rows++;
    lines++;
    line = p + 1;
  }
  if (line > end) line = end;
  batch_rows = rows;
  result[0] = rows;
  result[1] = lines;
  result[2] = (int32_t)(line - input);
  result[3] = status;
  return status;
}
