// The layers and checks of every ranked company's latest scan, kept in memory in a packed form, so a company read
// needs no database statement.
//
// Why: a company read was one statement, and a statement costs ~0.3 ms of the embedded database's time on the
// server's own thread (PGlite) or a pooled round trip (PostgreSQL), which capped distinct company reads at a few
// hundred per second, while a crawler or an agent walking company pages reads each one once. A scan's layers and
// checks never change once it has ended, and most of their fields are the catalog's (id, name, layer, tier, label,
// bonus, points): interned once, each scan keeps only ~11 bytes per check (which catalog entry, its status, the
// points earned), ~550 bytes per company outside the JavaScript heap.
import type { CheckRow, LayerRow } from './repository';

export interface ScanDetailRows {
  layers: LayerRow[];
  checks: CheckRow[];
}

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

// Packed layout of one scan: [checks u16][layers u16] then per check [shape u16][status u8][earned f64], then per
// layer [shape u16][score f64, NaN for null]. Little-endian.
const CHECK_BYTES = 11;
const LAYER_BYTES = 10;

export class ScanDetails {
  private readonly checkShapes = new Interner<CheckShape>(0xffff);
  private readonly layerShapes = new Interner<LayerShape>(0xffff);
  private readonly statuses = new Interner<string>(0xff);
  private readonly packed = new Map<string, Uint8Array>();

  get size(): number {
    return this.packed.size;
  }

  has(scanId: string): boolean {
    return this.packed.has(scanId);
  }

  /** The scan's rows as the database holds them, or undefined when they are not kept. */
  get(scanId: string): ScanDetailRows | undefined {
    const bytes = this.packed.get(scanId);
    if (!bytes) return undefined;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const checkCount = view.getUint16(0, true);
    const layerCount = view.getUint16(2, true);
    const checks: CheckRow[] = new Array(checkCount);
    let at = 4;
    for (let i = 0; i < checkCount; i++, at += CHECK_BYTES) {
      const shape = this.checkShapes.values[view.getUint16(at, true)];
      // The key order of the database's JSON (scans/detail.ts), so answers are byte for byte the same.
      checks[i] = {
        checkId: shape.checkId, name: shape.name, layer: shape.layer, tier: shape.tier, label: shape.label, bonus: shape.bonus,
        status: this.statuses.values[view.getUint8(at + 2)], earned: view.getFloat64(at + 3, true), points: shape.points,
      };
    }
    const layers: LayerRow[] = new Array(layerCount);
    for (let i = 0; i < layerCount; i++, at += LAYER_BYTES) {
      const shape = this.layerShapes.values[view.getUint16(at, true)];
      const score = view.getFloat64(at + 2, true);
      layers[i] = { layer: shape.layer, weight: shape.weight, score: Number.isNaN(score) ? null : score };
    }
    return { layers, checks };
  }

  /** Keeps a scan's rows; false (nothing kept) when they do not fit the packed form. */
  put(scanId: string, rows: ScanDetailRows): boolean {
    const { checks, layers } = rows;
    if (checks.length > 0xffff || layers.length > 0xffff) return false;
    const bytes = new Uint8Array(4 + checks.length * CHECK_BYTES + layers.length * LAYER_BYTES);
    const view = new DataView(bytes.buffer);
    view.setUint16(0, checks.length, true);
    view.setUint16(2, layers.length, true);
    let at = 4;
    for (const c of checks) {
      const shape = this.checkShapes.idOf(JSON.stringify([c.checkId, c.name, c.layer, c.tier, c.label, c.bonus, c.points]), () =>
        Object.freeze({ checkId: c.checkId, name: c.name, layer: c.layer, tier: c.tier, label: c.label, bonus: c.bonus, points: c.points }),
      );
      const status = this.statuses.idOf(c.status, () => c.status);
      // Only what the packed form gives back exactly.
      if (shape < 0 || status < 0 || typeof c.earned !== 'number') return false;
      view.setUint16(at, shape, true);
      view.setUint8(at + 2, status);
      view.setFloat64(at + 3, c.earned, true);
      at += CHECK_BYTES;
    }
    for (const l of layers) {
      const shape = this.layerShapes.idOf(JSON.stringify([l.layer, l.weight]), () => Object.freeze({ layer: l.layer, weight: l.weight }));
      if (shape < 0 || (l.score !== null && (typeof l.score !== 'number' || Number.isNaN(l.score)))) return false;
      view.setUint16(at, shape, true);
      view.setFloat64(at + 2, l.score ?? NaN, true);
      at += LAYER_BYTES;
    }
    this.packed.set(scanId, bytes);
    return true;
  }

  /** Forgets a scan that is no longer a company's latest. */
  delete(scanId: string): void {
    this.packed.delete(scanId);
  }

  /** Forgets every scan not in `keep` (scans that are no longer a company's latest). */
  retainOnly(keep: ReadonlySet<string>): void {
    for (const id of this.packed.keys()) if (!keep.has(id)) this.packed.delete(id);
  }
}
