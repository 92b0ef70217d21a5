/**
 * A streaming ZIP writer (PKWARE APPNOTE.TXT 6.3, the format ResourceSync
 * 1.1 section 11.1 packages Resource Dumps in). Each file is given whole and
 * small (a record's metadata, a manifest), so it is compressed first and its
 * local header written with the true CRC-32 and sizes: no data descriptors
 * (APPNOTE 4.3.9), which some readers mishandle. The central directory is
 * kept until the end: one small record per file, so memory grows with the
 * number of files in one package, never with their bytes.
 *
 * ZIP64 (APPNOTE 4.3.14, 4.5.3) is written only when a package passes the
 * 4 GiB offsets or 65,535 files of the classic format, or when asked
 * (`zip64: 'always'`, which the tests use to read that path back).
 *
 * Uses Node's zlib (raw DEFLATE, CRC-32): no dependency is needed for what
 * is a few dozen lines of headers.
 */
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
  readonly name: Buffer;
  readonly method: number;
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
    const deflated = zlib.deflateRawSync(data, { level: this.options.level });
    // A file DEFLATE cannot shrink is stored as it is (APPNOTE 4.4.5, method 0).
    const method = deflated.length < data.length ? DEFLATE : STORE;
    const body = method === DEFLATE ? deflated : data;
    const { time, date } = dosTime(mtime);
    const record: CentralRecord = { name: Buffer.from(name, 'latin1'), method, crc: zlib.crc32(data), compressed: body.length, size: data.length, offset: this.offset, time, date };
    const local = this.always;
    // APPNOTE 4.3.7: the local file header; with ZIP64 its sizes are in the extra field (4.5.3).
    const extra = local ? zip64Extra([record.size, record.compressed]) : Buffer.alloc(0);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(local ? 45 : 20, 4);
    head.writeUInt16LE(0, 6);
    head.writeUInt16LE(method, 8);
    head.writeUInt16LE(time, 10);
    head.writeUInt16LE(date, 12);
    head.writeUInt32LE(record.crc, 14);
    head.writeUInt32LE(local ? MAX32 : record.compressed, 18);
    head.writeUInt32LE(local ? MAX32 : record.size, 22);
    head.writeUInt16LE(record.name.length, 26);
    head.writeUInt16LE(extra.length, 28);
    await this.write(Buffer.concat([head, record.name, extra]));
    await this.write(body);
    this.files.push(record);
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
      head.writeUInt16LE(0, 8);
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
      await this.write(Buffer.concat([head, f.name, extra]));
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
