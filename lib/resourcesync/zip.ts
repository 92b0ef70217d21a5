/**
 * A streaming ZIP writer (PKWARE APPNOTE.TXT 6.3, the format ResourceSync
 * 1.1 section 11.1 packages Resource Dumps in). Each file is given whole and
 * small (a record's metadata, a manifest), so it is compressed first and its
 * local header written with the true CRC-32 and sizes: no data descriptors
 * (APPNOTE 4.3.9), which some readers mishandle. The central directory is
 * kept until the end: one small record per file, so memory grows with the
 * number of files in one package, never with their bytes.
 *
 * A file too long to hold whole (a package's manifest) is written as it is
 * produced, compressed by a streaming DEFLATE, with its CRC and sizes after
 * it in a data descriptor (APPNOTE 4.3.9, general purpose flag bit 3).
 *
 * ZIP64 (APPNOTE 4.3.14, 4.5.3) is written only when a package passes the
 * 4 GiB offsets or 65,535 files of the classic format, or when asked
 * (`zip64: 'always'`, which the tests use to read that path back).
 *
 * Uses Node's zlib (raw DEFLATE, CRC-32): no dependency is needed for what
 * is a few dozen lines of headers.
 */
import { once } from 'node:events';
import zlib from 'node:zlib';

/** Where the bytes go; a promise holds the writer back until the sink has taken them. */
export type ZipSink = (chunk: Buffer) => void | Promise<void>;

/** How a {@link ZipWriter} writes. */
export interface ZipOptions {
  /** The DEFLATE level, 1–9. */
  readonly level: number;
  /** `auto` (default): ZIP64 records only when the classic fields overflow; `always`: for every file and the end. */
  readonly zip64?: 'auto' | 'always';
}

interface CentralRecord {
  /** Kept as text: a small Buffer kept this long would pin the whole 8 KiB pool slab it was cut from. */
  readonly name: string;
  readonly method: number;
  /** General purpose flags (APPNOTE 4.4.4): bit 3 when a data descriptor follows the data. */
  readonly flags: number;
  readonly crc: number;
  readonly compressed: number;
  readonly size: number;
  readonly offset: number;
  readonly time: number;
  readonly date: number;
}

const MAX16 = 0xffff;
const MAX32 = 0xffffffff;
const DEFLATE = 8;
const STORE = 0;
const DESCRIPTOR = 0x0008;

/**
 * Writes one ZIP file, a file at a time.
 *
 * @example
 * const zip = new ZipWriter((chunk) => void chunks.push(chunk), { level: 6 });
 * await zip.add('manifest.xml', Buffer.from('<urlset/>'), 0);
 * await zip.finish();
 */
export class ZipWriter {
  private offset = 0;
  private readonly files: CentralRecord[] = [];
  private readonly always: boolean;

  constructor(
    private readonly sink: ZipSink,
    private readonly options: ZipOptions,
  ) {
    this.always = options.zip64 === 'always';
  }

  /** Adds a file: `name` (ASCII, `/`-separated), its bytes, its modification time in seconds (UTC). */
  async add(name: string, data: Buffer, mtime: number): Promise<void> {
    // zlib allocates an output chunk (16 KiB by default) per call: sized to the file instead (zlib's deflateBound),
    // less garbage waits for the collector (a package of 50,000 records: 22 MB of buffers at the peak, not 33 MB).
    const deflated = zlib.deflateRawSync(data, { level: this.options.level, chunkSize: Math.max(64, data.length + (data.length >> 10) + 64) });
    // A file DEFLATE cannot shrink is stored as it is (APPNOTE 4.4.5, method 0).
    const method = deflated.length < data.length ? DEFLATE : STORE;
    const body = method === DEFLATE ? deflated : data;
    const { time, date } = dosTime(mtime);
    const record: CentralRecord = {
      name,
      method,
      flags: 0,
      crc: zlib.crc32(data),
      compressed: body.length,
      size: data.length,
      offset: this.offset,
      time,
      date,
    };
    await this.write(localHeader(record, this.always));
    await this.write(body);
    this.files.push(record);
  }

  /**
   * Adds a file whose bytes `produce` gives piece by piece (through `put`),
   * compressed as they come; its CRC and sizes follow in a data descriptor.
   * Without ZIP64 records it must stay under 4 GiB.
   */
  async addStream(name: string, mtime: number, produce: (put: (piece: Buffer) => Promise<void>) => Promise<void>): Promise<void> {
    const { time, date } = dosTime(mtime);
    const offset = this.offset;
    // APPNOTE 4.4.4: with bit 3 the local header's CRC and sizes are zero.
    await this.write(localHeader({ name, method: DEFLATE, flags: DESCRIPTOR, crc: 0, compressed: 0, size: 0, offset, time, date }, this.always));
    const deflate = zlib.createDeflateRaw({ level: this.options.level });
    const ready: Buffer[] = [];
    deflate.on('data', (chunk: Buffer) => ready.push(chunk));
    let crc = 0;
    let size = 0;
    let compressed = 0;
    const forward = async (): Promise<void> => {
      for (let chunk = ready.shift(); chunk !== undefined; chunk = ready.shift()) {
        compressed += chunk.length;
        await this.write(chunk);
      }
    };
    await produce(async (piece) => {
      crc = zlib.crc32(piece, crc);
      size += piece.length;
      if (!deflate.write(piece)) await once(deflate, 'drain');
      await forward();
    });
    const ended = once(deflate, 'end');
    deflate.end();
    await ended;
    await forward();
    if (!this.always && (size >= MAX32 || compressed >= MAX32)) throw new Error(`${name} is 4 GiB or more: it needs ZIP64 records`);
    // APPNOTE 4.3.9: the data descriptor, with its optional signature; 8-byte sizes with ZIP64 (4.3.9.2).
    const descriptor = Buffer.alloc(this.always ? 24 : 16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc, 4);
    if (this.always) {
      descriptor.writeBigUInt64LE(BigInt(compressed), 8);
      descriptor.writeBigUInt64LE(BigInt(size), 16);
    } else {
      descriptor.writeUInt32LE(compressed, 8);
      descriptor.writeUInt32LE(size, 12);
    }
    await this.write(descriptor);
    this.files.push({ name, method: DEFLATE, flags: DESCRIPTOR, crc, compressed, size, offset, time, date });
  }

  /** Writes the central directory and its end; the ZIP is then complete. */
  async finish(): Promise<void> {
    const start = this.offset;
    for (const f of this.files) {
      const big = this.always || f.offset >= MAX32;
      // APPNOTE 4.3.12: a central directory header; a ZIP64 extra field carries the offset it cannot hold.
      const extra = big ? zip64Extra(this.always ? [f.size, f.compressed, f.offset] : [f.offset]) : Buffer.alloc(0);
      const head = Buffer.alloc(46);
      head.writeUInt32LE(0x02014b50, 0);
      head.writeUInt16LE(big ? 45 : 20, 4);
      head.writeUInt16LE(big ? 45 : 20, 6);
      head.writeUInt16LE(f.flags, 8);
      head.writeUInt16LE(f.method, 10);
      head.writeUInt16LE(f.time, 12);
      head.writeUInt16LE(f.date, 14);
      head.writeUInt32LE(f.crc, 16);
      head.writeUInt32LE(this.always ? MAX32 : f.compressed, 20);
      head.writeUInt32LE(this.always ? MAX32 : f.size, 24);
      head.writeUInt16LE(f.name.length, 28);
      head.writeUInt16LE(extra.length, 30);
      // Comment length, disk number start, internal and external attributes: all 0.
      head.writeUInt32LE(big ? MAX32 : f.offset, 42);
      await this.write(Buffer.concat([head, Buffer.from(f.name, 'latin1'), extra]));
    }
    const size = this.offset - start;
    const count = this.files.length;
    if (this.always || count >= MAX16 || start >= MAX32 || size >= MAX32) {
      const at = this.offset;
      // APPNOTE 4.3.14: the ZIP64 end of central directory record, then its locator (4.3.15).
      const end64 = Buffer.alloc(56 + 20);
      end64.writeUInt32LE(0x06064b50, 0);
      end64.writeBigUInt64LE(44n, 4);
      end64.writeUInt16LE(45, 12);
      end64.writeUInt16LE(45, 14);
      end64.writeBigUInt64LE(BigInt(count), 24);
      end64.writeBigUInt64LE(BigInt(count), 32);
      end64.writeBigUInt64LE(BigInt(size), 40);
      end64.writeBigUInt64LE(BigInt(start), 48);
      end64.writeUInt32LE(0x07064b50, 56);
      end64.writeBigUInt64LE(BigInt(at), 64);
      end64.writeUInt32LE(1, 72);
      await this.write(end64);
      await this.write(endRecord(MAX16, MAX32, MAX32));
    } else {
      await this.write(endRecord(count, size, start));
    }
  }

  private async write(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    await this.sink(chunk);
  }
}

/** APPNOTE 4.3.7: a local file header and its name; with ZIP64 the sizes are in the extra field (4.5.3). */
function localHeader(f: CentralRecord, zip64: boolean): Buffer {
  const extra = zip64 ? zip64Extra([f.size, f.compressed]) : Buffer.alloc(0);
  const head = Buffer.alloc(30);
  head.writeUInt32LE(0x04034b50, 0);
  head.writeUInt16LE(zip64 ? 45 : 20, 4);
  head.writeUInt16LE(f.flags, 6);
  head.writeUInt16LE(f.method, 8);
  head.writeUInt16LE(f.time, 10);
  head.writeUInt16LE(f.date, 12);
  head.writeUInt32LE(f.crc, 14);
  head.writeUInt32LE(zip64 ? MAX32 : f.compressed, 18);
  head.writeUInt32LE(zip64 ? MAX32 : f.size, 22);
  head.writeUInt16LE(f.name.length, 26);
  head.writeUInt16LE(extra.length, 28);
  return Buffer.concat([head, Buffer.from(f.name, 'latin1'), extra]);
}

/** APPNOTE 4.3.16: the end of central directory record. */
function endRecord(count: number, size: number, start: number): Buffer {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(start, 16);
  return end;
}

/** APPNOTE 4.5.3: the ZIP64 extended information extra field (tag 0x0001) holding the given 8-byte values, in order. */
function zip64Extra(values: readonly number[]): Buffer {
  const b = Buffer.alloc(4 + 8 * values.length);
  b.writeUInt16LE(0x0001, 0);
  b.writeUInt16LE(8 * values.length, 2);
  values.forEach((v, k) => b.writeBigUInt64LE(BigInt(v), 4 + 8 * k));
  return b;
}

/** MS-DOS date and time of a UTC time (APPNOTE 4.4.6): 2-second steps, 1980 to 2107. */
function dosTime(seconds: number): { time: number; date: number } {
  const d = new Date(Math.min(Math.max(seconds, 315532800), 4354819198) * 1000);
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1),
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}
