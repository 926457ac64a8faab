/**
 * Refcounted dictionaries for the columnar state table's key columns: a STRING key is stored
 * once however many windows it appears in, and a window struct once however many keys it
 * groups. Ids of entries whose count drops to 0 are reused. Each id also carries a stable hash
 * of its value (the partition of the entries using it).
 */
import { type Utf8Values, utf8String } from "../../columnar/utf8.js";
import { bytesEqual } from "../../columnar/utf8-ops.js";
import { hashNumber, hashString, mix, NULL_HASH, SEED } from "../../common/hash.js";

/** Slots of `StringDict.idsOfUtf8`'s cache of recently found ids (a power of 2). */
const RECENT_SLOTS = 1024;

/**
 * `idsOfUtf8`'s cache slot for the bytes [a, b): from their length and four of them (first two,
 * middle, last), cheaper than a hash of every byte; the cache compares every byte anyway.
 */
function recentSlot(bytes: Uint8Array, a: number, b: number): number {
  const len = b - a;
  if (len === 0) return 0;
  let h = Math.imul(len, 0x9e3779b1) ^ bytes[a]!;
  h = Math.imul(h, 0x01000193) ^ bytes[a + (len >> 1)]!;
  h = Math.imul(h, 0x01000193) ^ bytes[b - 1]!;
  h = Math.imul(h, 0x01000193) ^ bytes[len > 1 ? a + 1 : a]!;
  return (h ^ (h >>> 15)) & (RECENT_SLOTS - 1);
}

function growI32(a: Int32Array, n: number): Int32Array {
  if (a.length >= n) return a;
  const b = new Int32Array(Math.max(n, a.length * 2));
  b.set(a);
  return b;
}
function growF64(a: Float64Array, n: number): Float64Array {
  if (a.length >= n) return a;
  const b = new Float64Array(Math.max(n, a.length * 2));
  b.set(a);
  return b;
}

/** Bytes of a one-byte (Latin-1) or two-byte JS string on the heap (header, 8-byte aligned). */
function stringBytes(s: string): number {
  let wide = false;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 0xff) {
      wide = true;
      break;
    }
  }
  return (16 + (wide ? 2 : 1) * s.length + 7) & ~7;
}

/** Map entry plus hash-table slack (V8, 64-bit), as measured in docs/state.md. */
const MAP_ENTRY_BYTES = 32;

export class StringDict {
  private readonly ids = new Map<string, number>();
  /** String -> id, for lookups in bulk (read only). */
  get index(): ReadonlyMap<string, number> {
    return this.ids;
  }
  /** The string of each id; undefined = free. */
  strings: (string | undefined)[] = [];
  refs: Int32Array = new Int32Array(64);
  hashes: Int32Array = new Int32Array(64);
  private free: number[] = [];
  private lastStr: string | undefined = undefined;
  private lastId = -1;
  private stringBytes = 0;

  get size(): number {
    return this.ids.size;
  }

  /** The id of `s`, adding it (with no references) when new. */
  getOrAdd(s: string): number {
    if (s === this.lastStr) return this.lastId;
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.free.length > 0 ? this.free.pop()! : this.strings.length;
      if (id === this.strings.length) this.strings.push(s);
      else this.strings[id] = s;
      this.refs = growI32(this.refs, id + 1);
      this.hashes = growI32(this.hashes, id + 1);
      this.refs[id] = 0;
      this.hashes[id] = hashString(s);
      this.ids.set(s, id);
      this.stringBytes += stringBytes(s);
    }
    this.lastStr = s;
    this.lastId = id;
    return id;
  }

  /**
   * The ids of a UTF-8 STRING vector's n rows (columnar/utf8.ts) into `out`, without a JS string
   * per row: a row is matched on its bytes against the bytes of a row found earlier in the call
   * (direct-mapped by a few of its bytes and its length, `recentSlot`; key columns repeat a few
   * values), and only a miss hashes and decodes its string. NULL rows get -1; unseen strings are
   * added (`add`) or get -2, as `index` lookups do. Byte-equal rows decode to the same string,
   * so a match on bytes is a match on the value.
   */
  idsOfUtf8(u: Utf8Values, validity: Uint8Array | null, n: number, add: boolean, out: Int32Array): void {
    const recentIds = new Int32Array(RECENT_SLOTS).fill(-1);
    const recentBytes = new Array<Uint8Array>(RECENT_SLOTS);
    const { bytes, offsets } = u;
    for (let i = 0; i < n; i++) {
      if (validity !== null && validity[i] === 0) {
        out[i] = -1;
        continue;
      }
      const a = offsets[i]!;
      const b = offsets[i + 1]!;
      // two ways: the slot and its neighbour (a few dozen values would otherwise share slots and evict each other)
      const slot = recentSlot(bytes, a, b);
      if (recentIds[slot]! >= 0 && bytesEqual(bytes, a, b, recentBytes[slot]!)) {
        out[i] = recentIds[slot]!;
        continue;
      }
      const other = slot ^ 1;
      if (recentIds[other]! >= 0 && bytesEqual(bytes, a, b, recentBytes[other]!)) {
        out[i] = recentIds[other]!;
        continue;
      }
      const s = utf8String(u, i);
      const id = this.ids.get(s) ?? (add ? this.getOrAdd(s) : -2);
      out[i] = id;
      if (id >= 0) {
        // the slot's value moves to the neighbour
        recentIds[other] = recentIds[slot]!;
        recentBytes[other] = recentBytes[slot]!;
        recentIds[slot] = id;
        recentBytes[slot] = bytes.slice(a, b);
      }
    }
  }

  /** The id of `s`, or -1. */
  idOf(s: string): number {
    if (s === this.lastStr) return this.lastId;
    return this.ids.get(s) ?? -1;
  }

  ref(id: number): void {
    this.refs[id]!++;
  }

  /** Drop a reference; the id is freed when none is left. */
  unref(id: number): void {
    if (--this.refs[id]! > 0) return;
    const s = this.strings[id]!;
    this.ids.delete(s);
    this.strings[id] = undefined;
    this.free.push(id);
    this.stringBytes -= stringBytes(s);
    if (this.lastId === id) {
      this.lastStr = undefined;
      this.lastId = -1;
    }
  }

  bytes(): number {
    return (
      this.stringBytes +
      this.ids.size * MAP_ENTRY_BYTES +
      this.strings.length * 8 +
      this.refs.byteLength +
      this.hashes.byteLength +
      this.free.length * 8
    );
  }
}

/**
 * Tuples of numbers (a STRUCT key of numeric fields, e.g. a window {start, end}), each field
 * nullable. Looked up by the first field's value (a window's start fixes its end), falling back
 * to a text signature when two tuples share a first field or a field is NULL.
 */
export class TupleDict {
  /** Field values, `width` per id (0 for NULL fields). */
  vals: Float64Array;
  /** Bit f set = field f is NULL. */
  masks: Int32Array = new Int32Array(16);
  refs: Int32Array = new Int32Array(16);
  hashes: Int32Array = new Int32Array(16);
  private readonly byFirst = new Map<number, number>();
  private readonly bySig = new Map<string, number>();
  private free: number[] = [];
  private hwm = 0;
  private live = 0;
  private lastId = -1;

  constructor(readonly width: number) {
    this.vals = new Float64Array(16 * width);
  }

  get size(): number {
    return this.live;
  }
  /** Ids below this may be in use. */
  get highWater(): number {
    return this.hwm;
  }

  private same(id: number, row: Float64Array, mask: number): boolean {
    if (this.refs[id]! < 0 || this.masks[id] !== mask) return false;
    const w = this.width;
    const o = id * w;
    for (let f = 0; f < w; f++) {
      const a = this.vals[o + f]!;
      const b = row[f]!;
      if (a !== b && !(Number.isNaN(a) && Number.isNaN(b))) return false;
    }
    return true;
  }

  private signature(row: Float64Array, mask: number): string {
    let s = `${mask}`;
    for (let f = 0; f < this.width; f++) s += `|${Object.is(row[f], -0) ? 0 : row[f]}`;
    return s;
  }

  /** The id of the tuple (`row` holds the field values, 0 where `mask` says NULL), or -1. */
  idOf(row: Float64Array, mask: number): number {
    const last = this.lastId;
    if (last >= 0 && this.same(last, row, mask)) return last;
    if (mask === 0) {
      const id = this.byFirst.get(row[0]!);
      if (id !== undefined && this.same(id, row, mask)) return (this.lastId = id);
    }
    if (this.bySig.size === 0) return -1;
    const id = this.bySig.get(this.signature(row, mask));
    if (id === undefined) return -1;
    this.lastId = id;
    return id;
  }

  getOrAdd(row: Float64Array, mask: number): number {
    const found = this.idOf(row, mask);
    if (found >= 0) return found;
    const id = this.free.length > 0 ? this.free.pop()! : this.hwm++;
    const w = this.width;
    this.vals = growF64(this.vals, (id + 1) * w);
    this.masks = growI32(this.masks, id + 1);
    this.refs = growI32(this.refs, id + 1);
    this.hashes = growI32(this.hashes, id + 1);
    let h = SEED;
    for (let f = 0; f < w; f++) {
      const isNull = (mask >>> f) & 1;
      this.vals[id * w + f] = isNull ? 0 : row[f]!;
      h = mix(h, isNull ? NULL_HASH : hashNumber(row[f]!));
    }
    this.masks[id] = mask;
    this.refs[id] = 0;
    this.hashes[id] = h;
    if (mask === 0 && !this.byFirst.has(row[0]!)) this.byFirst.set(row[0]!, id);
    else this.bySig.set(this.signature(row, mask), id);
    this.live++;
    this.lastId = id;
    return id;
  }

  ref(id: number): void {
    this.refs[id]!++;
  }

  unref(id: number): void {
    if (--this.refs[id]! > 0) return;
    const w = this.width;
    const first = this.vals[id * w]!;
    if (this.masks[id] === 0 && this.byFirst.get(first) === id) this.byFirst.delete(first);
    else this.bySig.delete(this.signature(this.vals.subarray(id * w, id * w + w), this.masks[id]!));
    this.refs[id] = -1;
    this.free.push(id);
    this.live--;
    if (this.lastId === id) this.lastId = -1;
  }

  /** Does any tuple in use have field f NULL? */
  anyNullField(f: number): boolean {
    for (let t = 0; t < this.hwm; t++) if (this.refs[t]! >= 0 && (this.masks[t]! >>> f) & 1) return true;
    return false;
  }

  /** Field f of tuple id, or null. */
  field(id: number, f: number): number | null {
    return (this.masks[id]! >>> f) & 1 ? null : this.vals[id * this.width + f]!;
  }

  bytes(): number {
    return (
      this.vals.byteLength +
      this.masks.byteLength +
      this.refs.byteLength +
      this.hashes.byteLength +
      (this.byFirst.size + this.bySig.size) * MAP_ENTRY_BYTES +
      this.free.length * 8
    );
  }
}
