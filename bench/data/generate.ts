/**
 * Deterministic input for the engine comparison (bench/compare.ts): the same JSON-lines files
 * are read by arus and by PySpark. Everything is derived from (seed, event number), so a given
 * size always produces byte-identical files, whatever machine or order they are written in.
 *
 *   node --import tsx bench/data/generate.ts [--size quick|full|<nexmark events>] [--out DIR] [--force]
 *
 * Layout under DIR (default bench/data/out/<size>):
 *   nexmark/person/part-NNNNN.jsonl   Nexmark people    (1 in 50 events)
 *   nexmark/auction/part-NNNNN.jsonl  Nexmark auctions  (3 in 50 events)
 *   nexmark/bid/part-NNNNN.jsonl      Nexmark bids      (46 in 50 events)
 *   checkout/orders/part-NNNNN.jsonl  the seeds' checkout stream (web / mobile, late mobile rows)
 *   checkout/products/products.jsonl  static dimension: product → category (seed 002)
 *   manifest.json                     parameters and row counts; a matching manifest means
 *                                     "already generated" (use --force to rewrite)
 *
 * File k of every directory covers the same slice of event time, and file k's modification
 * time is BASE + k seconds in every directory, so a file source that orders by modification
 * time (Spark, arus) reads the same files in every micro-batch in both engines.
 *
 * Nexmark follows the Beam / Flink generator (GeneratorConfig defaults): proportions
 * person:auction:bid = 1:3:46, 10 000 events per second of event time (100 µs apart, so event
 * n has dateTime = BASE + n / 10 ms), 1 000 active people, 100 auctions in flight, hot auctions
 * (1 in 2 bids goes to the most recent hundred-block auction), hot bidders and sellers (3 in 4),
 * prices 10^(6·U)·100 cents, `extra` padding towards 200 / 500 / 100 bytes per person / auction
 * / bid. It is a faithful re-implementation of the id arithmetic, not a byte-identical port (the
 * random streams differ from java.util.Random).
 *
 * Checkout rows follow seeds 000-002: orders arrive at 1 000 per second (arrival_time), half of
 * them from `web`, half from `mobile`; event_time = arrival shifted back (order_id % 3) seconds
 * (seed 001); one mobile row in eight comes from a phone that was offline and is 40 seconds late
 * (seed 000) — with a 4-second watermark those rows are dropped by both engines. Products come
 * from seed 002's catalogue, widened to 40 products; the dimension leaves two out (an inner join
 * drops their rows).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";

export const GENERATOR_VERSION = 2;
export const DEFAULT_SEED = 20_260_116;
/** 2026-01-16T00:00:00Z, the event-time origin of both streams. */
export const BASE_MS = Date.UTC(2026, 0, 16);
/** Modification time of file k = FILE_MTIME_BASE + k seconds. */
const FILE_MTIME_BASE_S = Date.UTC(2026, 0, 1) / 1000;

export interface Sizes {
  /** Nexmark events in total (person + auction + bid). */
  nexmarkEvents: number;
  /** Nexmark events per file (per slice; each directory gets its share). */
  nexmarkEventsPerFile: number;
  checkoutRows: number;
  checkoutRowsPerFile: number;
}

export const SIZES: Record<string, Sizes> = {
  // ~30 s of Nexmark event time, ~200 s of checkout arrivals.
  quick: { nexmarkEvents: 300_000, nexmarkEventsPerFile: 100_000, checkoutRows: 200_000, checkoutRowsPerFile: 50_000 },
  // ~1 000 s of Nexmark event time, ~2 000 s of checkouts.
  full: { nexmarkEvents: 10_000_000, nexmarkEventsPerFile: 250_000, checkoutRows: 2_000_000, checkoutRowsPerFile: 250_000 },
};

export function sizesFor(name: string): Sizes {
  const s = SIZES[name];
  if (s) return s;
  const n = Number(name);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`unknown size ${name}: quick, full or a number of Nexmark events`);
  return {
    nexmarkEvents: n,
    nexmarkEventsPerFile: Math.min(250_000, n),
    checkoutRows: Math.ceil(n / 5),
    checkoutRowsPerFile: Math.min(250_000, Math.ceil(n / 5)),
  };
}

// ------------------------------------------------------------------------------------------ PRNG

/** A small seeded generator (splitmix32 for seeding, mulberry32 for the stream). */
export class Rng {
  private s: number;
  constructor(seed: number, stream: number) {
    // splitmix32 over (seed, stream) so each event has an independent, reproducible stream.
    let z = (Math.imul(seed | 0, 0x9e3779b9) ^ Math.imul(stream | 0, 0x85ebca6b) ^ Math.floor(stream / 4294967296)) >>> 0;
    z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
    this.s = (z ^ (z >>> 15)) >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** Lowercase letters, length n. */
  string(n: number): string {
    let s = "";
    for (let i = 0; i < n; i++) s += String.fromCharCode(97 + this.int(26));
    return s;
  }
}

// --------------------------------------------------------------------------------------- Nexmark

const PERSON_PROPORTION = 1;
const AUCTION_PROPORTION = 3;
const BID_PROPORTION = 46;
const TOTAL_PROPORTION = PERSON_PROPORTION + AUCTION_PROPORTION + BID_PROPORTION;
const FIRST_PERSON_ID = 1000;
const FIRST_AUCTION_ID = 1000;
const FIRST_CATEGORY_ID = 10;
const NUM_CATEGORIES = 5;
const NUM_ACTIVE_PEOPLE = 1000;
const NUM_IN_FLIGHT_AUCTIONS = 100;
const PERSON_ID_LEAD = 10;
const AUCTION_ID_LEAD = 10;
const HOT_AUCTION_RATIO = 100;
const HOT_BIDDER_RATIO = 100;
const HOT_SELLER_RATIO = 100;
const HOT_AUCTIONS_PROB = 2; // config.hotAuctionRatio
const HOT_BIDDERS_PROB = 4; // config.hotBiddersRatio
const HOT_SELLERS_PROB = 4; // config.hotSellersRatio
/** 10 000 events/s of event time (Nexmark's firstEventRate): 100 µs between events. */
export const NEXMARK_EVENTS_PER_SECOND = 10_000;
const AVG_PERSON_BYTES = 200;
const AVG_AUCTION_BYTES = 500;
const AVG_BID_BYTES = 100;

const FIRST_NAMES = ["Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"];
const LAST_NAMES = ["Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"];
const US_STATES = ["AZ", "CA", "ID", "OR", "WA", "WY"];
const US_CITIES = ["Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend", "Redmond", "Seattle", "Kent", "Cheyenne"];
const HOT_CHANNELS = ["Google", "Facebook", "Baidu", "Apple"];
const CHANNELS_NUMBER = 10_000;

export type EventKind = "person" | "auction" | "bid";

export function eventKind(n: number): EventKind {
  const off = n % TOTAL_PROPORTION;
  if (off < PERSON_PROPORTION) return "person";
  if (off < PERSON_PROPORTION + AUCTION_PROPORTION) return "auction";
  return "bid";
}

function lastBase0PersonId(n: number): number {
  const epoch = Math.floor(n / TOTAL_PROPORTION);
  let off = n % TOTAL_PROPORTION;
  if (off >= PERSON_PROPORTION) off = PERSON_PROPORTION - 1;
  return epoch * PERSON_PROPORTION + off;
}

function lastBase0AuctionId(n: number): number {
  let epoch = Math.floor(n / TOTAL_PROPORTION);
  let off = n % TOTAL_PROPORTION;
  if (off < PERSON_PROPORTION) {
    epoch--;
    off = AUCTION_PROPORTION - 1;
  } else if (off >= PERSON_PROPORTION + AUCTION_PROPORTION) {
    off = AUCTION_PROPORTION - 1;
  } else {
    off -= PERSON_PROPORTION;
  }
  return epoch * AUCTION_PROPORTION + off;
}

function nextBase0PersonId(n: number, r: Rng): number {
  const numPeople = lastBase0PersonId(n) + 1;
  const active = Math.min(numPeople, NUM_ACTIVE_PEOPLE);
  return numPeople - active + r.int(active + PERSON_ID_LEAD);
}

function nextBase0AuctionId(n: number, r: Rng): number {
  const maxAuction = Math.max(lastBase0AuctionId(n), 0);
  const minAuction = Math.max(maxAuction - NUM_IN_FLIGHT_AUCTIONS, 0);
  return minAuction + r.int(maxAuction - minAuction + 1 + AUCTION_ID_LEAD);
}

function nextPrice(r: Rng): number {
  return Math.round(10 ** (r.next() * 6) * 100);
}

function nextExtra(r: Rng, currentSize: number, desiredAverage: number): string {
  if (currentSize > desiredAverage) return "";
  const want = desiredAverage - currentSize;
  const delta = Math.round(want * 0.2);
  return r.string(want - delta + (delta === 0 ? 0 : r.int(2 * delta)));
}

/** ISO-8601 with milliseconds and `Z`, the form both engines read as TIMESTAMP. */
export function isoMs(ms: number): string {
  return new Date(ms).toISOString();
}

export function nexmarkTimeMs(n: number): number {
  return BASE_MS + Math.floor((n * 1000) / NEXMARK_EVENTS_PER_SECOND);
}

/** One Nexmark event as a JSON line (without the newline). */
export function nexmarkEvent(seed: number, n: number): { kind: EventKind; line: string } {
  const r = new Rng(seed, n);
  const kind = eventKind(n);
  const ts = nexmarkTimeMs(n);
  const dateTime = isoMs(ts);
  if (kind === "person") {
    const id = lastBase0PersonId(n) + FIRST_PERSON_ID;
    const name = `${FIRST_NAMES[r.int(FIRST_NAMES.length)]} ${LAST_NAMES[r.int(LAST_NAMES.length)]}`;
    const email = `${r.string(7)}@${r.string(5)}.com`;
    const cc = Array.from({ length: 4 }, () => String(r.int(10_000)).padStart(4, "0")).join(" ");
    const city = US_CITIES[r.int(US_CITIES.length)]!;
    const state = US_STATES[r.int(US_STATES.length)]!;
    const size = 8 + name.length + 1 + email.length + 1 + cc.length + 1 + city.length + 1 + state.length + 1 + 8;
    const extra = nextExtra(r, size, AVG_PERSON_BYTES);
    return {
      kind,
      line: JSON.stringify({ id, name, emailAddress: email, creditCard: cc, city, state, dateTime, extra }),
    };
  }
  if (kind === "auction") {
    const id = lastBase0AuctionId(n) + FIRST_AUCTION_ID;
    const seller =
      (r.int(HOT_SELLERS_PROB) > 0 ? Math.floor(lastBase0PersonId(n) / HOT_SELLER_RATIO) * HOT_SELLER_RATIO : nextBase0PersonId(n, r)) +
      FIRST_PERSON_ID;
    const category = FIRST_CATEGORY_ID + r.int(NUM_CATEGORIES);
    const initialBid = nextPrice(r);
    const reserve = initialBid + nextPrice(r);
    // Auctions last a few seconds to a few minutes of event time.
    const expires = isoMs(ts + 2_000 + r.int(120_000));
    const itemName = r.string(20);
    const description = r.string(100);
    const size = 8 + itemName.length + 1 + description.length + 1 + 8 + 8 + 8 + 8 + 8;
    const extra = nextExtra(r, size, AVG_AUCTION_BYTES);
    return {
      kind,
      line: JSON.stringify({ id, itemName, description, initialBid, reserve, dateTime, expires, seller, category, extra }),
    };
  }
  const auction =
    (r.int(HOT_AUCTIONS_PROB) > 0 ? Math.floor(lastBase0AuctionId(n) / HOT_AUCTION_RATIO) * HOT_AUCTION_RATIO : nextBase0AuctionId(n, r)) +
    FIRST_AUCTION_ID;
  const bidder =
    (r.int(HOT_BIDDERS_PROB) > 0 ? Math.floor(lastBase0PersonId(n) / HOT_BIDDER_RATIO) * HOT_BIDDER_RATIO + 1 : nextBase0PersonId(n, r)) +
    FIRST_PERSON_ID;
  const price = nextPrice(r);
  let channel: string;
  let url: string;
  if (r.int(2) > 0) {
    const i = r.int(HOT_CHANNELS.length);
    channel = HOT_CHANNELS[i]!;
    url = `https://www.nexmark.com/${HOT_CHANNELS[i]!.toLowerCase()}/item.htm?query=1`;
  } else {
    const i = r.int(CHANNELS_NUMBER);
    channel = `channel-${i}`;
    url = `https://www.nexmark.com/${r.string(5)}/${r.string(5)}/item.htm?query=1&channel_id=${i}`;
  }
  const size = 8 * 4 + channel.length + 1 + url.length + 1;
  const extra = nextExtra(r, size, AVG_BID_BYTES);
  return { kind, line: JSON.stringify({ auction, bidder, price, channel, url, dateTime, extra }) };
}

// -------------------------------------------------------------------------------------- checkout

const PRODUCT_BASES: [string, string][] = [
  ["Rok Tenun", "pakaian"],
  ["Kain Songket", "pakaian"],
  ["Tas Rotan", "aksesoris"],
  ["Blouse Katun", "pakaian"],
  ["Batik Tulis", "pakaian"],
  ["Kebaya Encim", "pakaian"],
  ["Topi Anyaman", "aksesoris"],
  ["Dompet Kulit", "aksesoris"],
  ["Sandal Kulit", "alas kaki"],
  ["Kopi Gayo", "makanan"],
];
/** 40 products: seed 002's four first, then variants. */
export const PRODUCTS: [string, string][] = Array.from({ length: 40 }, (_, i) => {
  const [name, cat] = PRODUCT_BASES[i % PRODUCT_BASES.length]!;
  return [i < PRODUCT_BASES.length ? name : `${name} ${Math.floor(i / PRODUCT_BASES.length) + 1}`, cat];
});
/** Products the dimension leaves out (their orders are dropped by the inner join). */
const MISSING_FROM_DIMENSION = new Set([PRODUCTS[17]![0], PRODUCTS[33]![0]]);

export const CHECKOUT_ROWS_PER_SECOND = 1_000;
export const CHECKOUT_LATE_MOBILE_SECONDS = 40;

export function checkoutRow(seed: number, orderId: number): string {
  const r = new Rng(seed ^ 0x5eed, orderId);
  const arrival = BASE_MS + Math.floor((orderId * 1000) / CHECKOUT_ROWS_PER_SECOND);
  const mobile = orderId % 2 === 1;
  const offline = mobile && r.int(8) === 0;
  const eventTime = arrival - (offline ? CHECKOUT_LATE_MOBILE_SECONDS * 1000 : (orderId % 3) * 1000);
  // Hot products: a quarter of orders go to seed 002's four products.
  const p = r.int(4) === 0 ? r.int(4) : r.int(PRODUCTS.length);
  const qty = 1 + r.int(5);
  const harga = (10 + r.int(490)) * 1000;
  return JSON.stringify({
    order_id: orderId,
    sumber: mobile ? "mobile" : "web",
    produk: PRODUCTS[p]![0],
    qty,
    harga,
    event_time: isoMs(eventTime),
    arrival_time: isoMs(arrival),
  });
}

// ---------------------------------------------------------------------------------------- writer

export interface Manifest {
  generatorVersion: number;
  seed: number;
  size: string;
  sizes: Sizes;
  rows: Record<string, number>;
  files: Record<string, number>;
  bytes: Record<string, number>;
}

function writeSliceFile(dir: string, k: number, lines: string[]): number {
  const file = path.join(dir, `part-${String(k).padStart(5, "0")}.jsonl`);
  const text = lines.length ? `${lines.join("\n")}\n` : "";
  writeFileSync(file, text);
  const t = FILE_MTIME_BASE_S + k;
  utimesSync(file, t, t);
  return Buffer.byteLength(text);
}

export function generate(
  outDir: string,
  size: string,
  seed = DEFAULT_SEED,
  force = false,
  log: (s: string) => void = (s) => process.stderr.write(`${s}\n`),
): Manifest {
  const sizes = sizesFor(size);
  const manifestPath = path.join(outDir, "manifest.json");
  if (!force && existsSync(manifestPath)) {
    const m = JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
    if (m.generatorVersion === GENERATOR_VERSION && m.seed === seed && JSON.stringify(m.sizes) === JSON.stringify(sizes)) return m;
  }
  rmSync(outDir, { recursive: true, force: true });
  const dirs = {
    person: path.join(outDir, "nexmark/person"),
    auction: path.join(outDir, "nexmark/auction"),
    bid: path.join(outDir, "nexmark/bid"),
    orders: path.join(outDir, "checkout/orders"),
    products: path.join(outDir, "checkout/products"),
  };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  const rows: Record<string, number> = { person: 0, auction: 0, bid: 0, orders: 0, products: 0 };
  const files: Record<string, number> = { person: 0, auction: 0, bid: 0, orders: 0, products: 1 };
  const bytes: Record<string, number> = { person: 0, auction: 0, bid: 0, orders: 0, products: 0 };
  const t0 = performance.now();

  // Nexmark: slice k = events [k * perFile, (k + 1) * perFile), split by kind.
  const perFile = sizes.nexmarkEventsPerFile;
  for (let k = 0, first = 0; first < sizes.nexmarkEvents; k++, first += perFile) {
    const out: Record<EventKind, string[]> = { person: [], auction: [], bid: [] };
    const last = Math.min(first + perFile, sizes.nexmarkEvents);
    for (let n = first; n < last; n++) {
      const e = nexmarkEvent(seed, n);
      out[e.kind].push(e.line);
    }
    for (const kind of ["person", "auction", "bid"] as const) {
      bytes[kind]! += writeSliceFile(dirs[kind], k, out[kind]);
      rows[kind]! += out[kind].length;
      files[kind]!++;
    }
  }
  // Checkout orders.
  const perOrders = sizes.checkoutRowsPerFile;
  for (let k = 0, first = 0; first < sizes.checkoutRows; k++, first += perOrders) {
    const lines: string[] = [];
    const last = Math.min(first + perOrders, sizes.checkoutRows);
    for (let id = first; id < last; id++) lines.push(checkoutRow(seed, id));
    bytes.orders! += writeSliceFile(dirs.orders, k, lines);
    rows.orders! += lines.length;
    files.orders!++;
  }
  // Product dimension (static side of seed 002's join).
  const dim = PRODUCTS.filter(([p]) => !MISSING_FROM_DIMENSION.has(p)).map(([produk, kategori]) => JSON.stringify({ produk, kategori }));
  const dimText = `${dim.join("\n")}\n`;
  writeFileSync(path.join(dirs.products, "products.jsonl"), dimText);
  rows.products = dim.length;
  bytes.products = Buffer.byteLength(dimText);

  const manifest: Manifest = { generatorVersion: GENERATOR_VERSION, seed, size, sizes, rows, files, bytes };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  log(`generated ${outDir} in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${JSON.stringify(rows)}`);
  return manifest;
}

export function defaultOutDir(size: string): string {
  return path.resolve(import.meta.dirname, "out", size);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const argv = process.argv.slice(2);
  const get = (k: string) => {
    const i = argv.indexOf(k);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const size = get("--size") ?? "quick";
  const out = get("--out") ?? defaultOutDir(size);
  const m = generate(out, size, Number(get("--seed") ?? DEFAULT_SEED), argv.includes("--force"));
  process.stdout.write(`${JSON.stringify(m, null, 2)}\n`);
}
