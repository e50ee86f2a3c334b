// The layers and checks of every ranked company's latest scan, kept in memory in a packed form, so a company read
// needs no database statement.
//
// Why: a company read was one statement, and a statement costs ~0.3 ms of the embedded database's time on the
// server's own thread (PGlite) or a pooled round trip (PostgreSQL), which capped distinct company reads at a few
// hundred per second, while a crawler or an agent walking company pages reads each one once. A scan's layers and
// checks never change once it has ended, and most of their fields are the catalog's (id, name, layer, tier, label,
// bonus, points): interned once, each scan keeps only ~5 bytes per check (which catalog entry, its status, the points
// earned), ~270 bytes per company.
//
// Where: in 1 MB pages outside the JavaScript heap, a scan's record at an offset the map holds as a number. A typed
// array per scan cost ~300 bytes of object and allocation overhead beside its bytes (~700 MB at 1,000,000 companies
// with 8-byte points); pages cost nothing per scan. A forgotten scan leaves a hole; a page more than half holes is
// compacted (its live records move to the page being filled), so memory follows the scans kept.
import type { CheckRow, LayerRow, ScanDetail } from '../scans/detail';

export type ScanDetailRows = ScanDetail;

type CheckShape = Readonly<Pick<CheckRow, 'checkId' | 'name' | 'layer' | 'tier' | 'label' | 'bonus' | 'points'>>;
type LayerShape = Readonly<Pick<LayerRow, 'layer' | 'weight'>>;

/** Interns values by a key: the same catalog entry of 100,000 scans is one object. */
class Interner<T> {
  readonly values: T[] = [];
  private readonly ids = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** The value's id, or -1 when the table is full. */
  idOf(key: string, make: () => T): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      if (this.values.length >= this.max) return -1;
      id = this.values.length;
      this.values.push(make());
      this.ids.set(key, id);
    }
    return id;
  }
}

// A record: [total bytes u32][scan id: 36 ASCII bytes][checks u16][layers u16], then per check [shape u16][status u8]
// [earned: number], then per layer [shape u16][score: number or null]. Little-endian. A number is one u16 when it is
// an integer below SMALL_LIMIT (points and scores almost always are), else the marker WIDE and an f64; NULL marks a
// null score. The scan id lets a page's compaction know whose record it moves.
const PAGE_BYTES = 1 << 20;
const ID_BYTES = 36;
const HEADER_BYTES = 4 + ID_BYTES + 4;
const SMALL_LIMIT = 0xfffe;
const NULL = 0xfffe;
const WIDE = 0xffff;

const numberBytes = (n: number | null) => (n === null || (Number.isInteger(n) && n >= 0 && n < SMALL_LIMIT) ? 2 : 10);

interface Page {
  bytes: Buffer;
  /** Bytes written so far. */
  used: number;
  /** Bytes of records forgotten. */
  holes: number;
}

/** Rows read back that are shared (see `checkRow`): a bound, since fractional points could make them many. */
const SHARED_ROWS = 1 << 16;

export class ScanDetails {
  private readonly checkShapes = new Interner<CheckShape>(0xffff);
  private readonly layerShapes = new Interner<LayerShape>(0xffff);
  private readonly statuses = new Interner<string>(0xff);
  /** Frozen rows read back, by (shape, status, points) and (shape, score): see `checkRow`. */
  private readonly checkRows = new Map<number, CheckRow>();
  private readonly layerRows = new Map<number, LayerRow>();
  private readonly pages: Array<Page | null> = [];
  /** The page records are appended to. */
  private filling = -1;
  /** scan id -> page x PAGE_BYTES + offset of its record. */
  private readonly at = new Map<string, number>();

  get size(): number {
    return this.at.size;
  }

  /** Bytes held in pages (metrics, tests). */
  get bytesHeld(): number {
    return this.pages.reduce((n, p) => n + (p ? p.bytes.length : 0), 0);
  }

  has(scanId: string): boolean {
    return this.at.has(scanId);
  }

  /** The scan's rows as the database holds them, or undefined when they are not kept. */
  get(scanId: string): ScanDetailRows | undefined {
    const location = this.at.get(scanId);
    if (location === undefined) return undefined;
    const bytes = this.pages[Math.floor(location / PAGE_BYTES)]!.bytes;
    let at = (location % PAGE_BYTES) + 4 + ID_BYTES;
    const checkCount = bytes.readUInt16LE(at);
    const layerCount = bytes.readUInt16LE(at + 2);
    at += 4;
    const number = (): number | null => {
      const small = bytes.readUInt16LE(at);
      at += 2;
      if (small === NULL) return null;
      if (small !== WIDE) return small;
      at += 8;
      return bytes.readDoubleLE(at - 8);
    };
    const checks: CheckRow[] = new Array(checkCount);
    for (let i = 0; i < checkCount; i++) {
      const shape = bytes.readUInt16LE(at);
      const status = bytes[at + 2];
      at += 3;
      const small = bytes.readUInt16LE(at);
      checks[i] = small < SMALL_LIMIT ? this.checkRow(shape, status, small) : this.newCheckRow(shape, status, number()!);
      if (small < SMALL_LIMIT) at += 2;
    }
    const layers: LayerRow[] = new Array(layerCount);
    for (let i = 0; i < layerCount; i++) {
      const shape = bytes.readUInt16LE(at);
      at += 2;
      const small = bytes.readUInt16LE(at);
      if (small === WIDE) {
        const s = this.layerShapes.values[shape];
        layers[i] = { layer: s.layer, weight: s.weight, score: number() };
      } else {
        at += 2;
        layers[i] = this.layerRow(shape, small === NULL ? null : small);
      }
    }
    return { layers, checks };
  }

  /**
   * The check row of a catalog entry with a status and whole points, one frozen object for every scan that has
   * it: the answer path remembers a frozen object's JSON text and its verdict against the contract
   * (http/frozen-memo.ts), so the ~50 checks of a company read cost lookups instead of a serialization and a
   * validation each (a third of a company read's time).
   */
  private checkRow(shape: number, status: number, earned: number): CheckRow {
    const key = (shape * 0x100 + status) * 0x10000 + earned;
    let row = this.checkRows.get(key);
    if (row === undefined) {
      row = this.newCheckRow(shape, status, earned);
      if (this.checkRows.size < SHARED_ROWS) this.checkRows.set(key, Object.freeze(row));
    }
    return row;
  }

  private newCheckRow(shape: number, status: number, earned: number): CheckRow {
    const s = this.checkShapes.values[shape];
    // The key order of the database's JSON (scans/detail.ts), so answers are byte for byte the same.
    return {
      checkId: s.checkId, name: s.name, layer: s.layer, tier: s.tier, label: s.label, bonus: s.bonus,
      status: this.statuses.values[status], earned, points: s.points,
    };
  }

  /** The layer row of a layer with a score (or none), one frozen object for every scan that has it (see checkRow). */
  private layerRow(shape: number, score: number | null): LayerRow {
    const key = shape * 0x10000 + (score ?? NULL);
    let row = this.layerRows.get(key);
    if (row === undefined) {
      const s = this.layerShapes.values[shape];
      row = { layer: s.layer, weight: s.weight, score };
      if (this.layerRows.size < SHARED_ROWS) this.layerRows.set(key, Object.freeze(row));
    }
    return row;
  }

  /** Keeps a scan's rows; false (nothing kept) when they do not fit the packed form. */
  put(scanId: string, rows: ScanDetailRows): boolean {
    const { checks, layers } = rows;
    if (checks.length > 0xffff || layers.length > 0xffff || scanId.length !== ID_BYTES || !/^[\x20-\x7e]+$/.test(scanId)) return false;
    let size = HEADER_BYTES;
    const checkIds: number[] = [];
    for (const c of checks) {
      const shape = this.checkShapes.idOf(JSON.stringify([c.checkId, c.name, c.layer, c.tier, c.label, c.bonus, c.points]), () =>
        Object.freeze({ checkId: c.checkId, name: c.name, layer: c.layer, tier: c.tier, label: c.label, bonus: c.bonus, points: c.points }),
      );
      const status = this.statuses.idOf(c.status, () => c.status);
      // Only what the packed form gives back exactly.
      if (shape < 0 || status < 0 || typeof c.earned !== 'number') return false;
      checkIds.push(shape, status);
      size += 3 + numberBytes(c.earned);
    }
    const layerIds: number[] = [];
    for (const l of layers) {
      const shape = this.layerShapes.idOf(JSON.stringify([l.layer, l.weight]), () => Object.freeze({ layer: l.layer, weight: l.weight }));
      if (shape < 0 || (l.score !== null && (typeof l.score !== 'number' || Number.isNaN(l.score)))) return false;
      layerIds.push(shape);
      size += 2 + numberBytes(l.score);
    }
    if (size > PAGE_BYTES) return false;
    this.delete(scanId);
    const location = this.reserve(size);
    const bytes = this.pages[Math.floor(location / PAGE_BYTES)]!.bytes;
    let at = location % PAGE_BYTES;
    bytes.writeUInt32LE(size, at);
    bytes.write(scanId, at + 4, 'latin1');
    bytes.writeUInt16LE(checks.length, at + 4 + ID_BYTES);
    bytes.writeUInt16LE(layers.length, at + 6 + ID_BYTES);
    at += HEADER_BYTES;
    const number = (n: number | null) => {
      if (n === null) bytes.writeUInt16LE(NULL, at);
      else if (numberBytes(n) === 2) bytes.writeUInt16LE(n, at);
      else {
        bytes.writeUInt16LE(WIDE, at);
        bytes.writeDoubleLE(n, at + 2);
        at += 8;
      }
      at += 2;
    };
    checks.forEach((c, i) => {
      bytes.writeUInt16LE(checkIds[2 * i], at);
      bytes[at + 2] = checkIds[2 * i + 1];
      at += 3;
      number(c.earned);
    });
    layers.forEach((l, i) => {
      bytes.writeUInt16LE(layerIds[i], at);
      at += 2;
      number(l.score);
    });
    this.at.set(scanId, location);
    return true;
  }

  /** Forgets a scan that is no longer a company's latest. */
  delete(scanId: string): void {
    const location = this.at.get(scanId);
    if (location === undefined) return;
    this.at.delete(scanId);
    const index = Math.floor(location / PAGE_BYTES);
    const page = this.pages[index]!;
    page.holes += page.bytes.readUInt32LE(location % PAGE_BYTES);
    if (page.holes === page.used && index !== this.filling) this.pages[index] = null;
    else if (page.holes * 2 > page.used && index !== this.filling) this.compact(index);
  }

  /** Forgets every scan not in `keep` (scans that are no longer a company's latest). */
  retainOnly(keep: ReadonlySet<string>): void {
    for (const id of [...this.at.keys()]) if (!keep.has(id)) this.delete(id);
  }

  /** Room for `size` bytes: at the end of the page being filled, or in a new page. */
  private reserve(size: number): number {
    let page = this.filling >= 0 ? this.pages[this.filling] : null;
    if (!page || page.used + size > PAGE_BYTES) {
      const full = this.filling >= 0 ? this.pages[this.filling] : null;
      const free = this.pages.indexOf(null);
      this.filling = free >= 0 ? free : this.pages.length;
      this.pages[this.filling] = page = { bytes: Buffer.allocUnsafeSlow(PAGE_BYTES), used: 0, holes: 0 };
      // The page it leaves may already be mostly holes (it was not compacted while it was being filled).
      if (full && full.holes * 2 > full.used) this.compact(this.pages.indexOf(full));
    }
    const location = this.filling * PAGE_BYTES + page.used;
    page.used += size;
    return location;
  }

  /** Moves a page's live records to the page being filled and drops it. */
  private compact(index: number): void {
    const page = this.pages[index]!;
    this.pages[index] = null;
    for (let at = 0; at < page.used; ) {
      const size = page.bytes.readUInt32LE(at);
      const id = page.bytes.toString('latin1', at + 4, at + 4 + ID_BYTES);
      if (this.at.get(id) === index * PAGE_BYTES + at) {
        const location = this.reserve(size);
        page.bytes.copy(this.pages[Math.floor(location / PAGE_BYTES)]!.bytes, location % PAGE_BYTES, at, at + size);
        this.at.set(id, location);
      }
      at += size;
    }
  }
}
