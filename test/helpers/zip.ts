/**
 * A small ZIP reader for the tests (PKWARE APPNOTE.TXT 6.3), written apart
 * from the server's writer: it finds the end of central directory record
 * (and the ZIP64 one when the classic fields say so), walks the central
 * directory, and inflates each file from its local header, checking that
 * the local header, the central directory, the CRC-32 and the sizes agree.
 */
import zlib from 'node:zlib';

/** A file read back from a ZIP. */
export interface ZipFile {
  readonly name: string;
  readonly data: Buffer;
  /** Whether it was DEFLATE-compressed (method 8) rather than stored (0). */
  readonly deflated: boolean;
  /** Whether its central directory record needed a ZIP64 extra field. */
  readonly zip64: boolean;
  /** Whether its CRC and sizes came after it, in a data descriptor (general purpose flag bit 3). */
  readonly described: boolean;
}

/** Every file of a ZIP, in central directory order; throws on anything inconsistent. */
export function readZip(zip: Buffer): ZipFile[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > zip.length) throw new Error('no end of central directory record');
  let count = zip.readUInt16LE(eocd + 10);
  let size = zip.readUInt32LE(eocd + 12);
  let start = zip.readUInt32LE(eocd + 16);
  if (count === 0xffff || size === 0xffffffff || start === 0xffffffff) {
    const locator = eocd - 20;
    if (zip.readUInt32LE(locator) !== 0x07064b50) throw new Error('ZIP64 fields without a ZIP64 locator');
    const end64 = Number(zip.readBigUInt64LE(locator + 8));
    if (zip.readUInt32LE(end64) !== 0x06064b50) throw new Error('the ZIP64 locator points at no ZIP64 record');
    count = Number(zip.readBigUInt64LE(end64 + 32));
    size = Number(zip.readBigUInt64LE(end64 + 40));
    start = Number(zip.readBigUInt64LE(end64 + 48));
  }
  const files: ZipFile[] = [];
  let p = start;
  for (let k = 0; k < count; k++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error(`central directory record ${k} is missing`);
    const flags = zip.readUInt16LE(p + 8);
    const described = (flags & 0x0008) !== 0;
    const method = zip.readUInt16LE(p + 10);
    const crc = zip.readUInt32LE(p + 16);
    let compressed = zip.readUInt32LE(p + 20);
    let length = zip.readUInt32LE(p + 24);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    let offset = zip.readUInt32LE(p + 42);
    const name = zip.toString('latin1', p + 46, p + 46 + nameLength);
    const extra = zip.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength);
    let zip64 = false;
    // APPNOTE 4.5.3: the ZIP64 values are present only for the fields set to all ones, in this order.
    for (let e = 0; e + 4 <= extra.length; e += 4 + extra.readUInt16LE(e + 2)) {
      if (extra.readUInt16LE(e) !== 0x0001) continue;
      zip64 = true;
      let v = e + 4;
      const next = (): number => {
        const n = Number(extra.readBigUInt64LE(v));
        v += 8;
        return n;
      };
      if (length === 0xffffffff) length = next();
      if (compressed === 0xffffffff) compressed = next();
      if (offset === 0xffffffff) offset = next();
    }
    if (zip.readUInt32LE(offset) !== 0x04034b50) throw new Error(`no local header for ${name}`);
    const localName = zip.toString('latin1', offset + 30, offset + 30 + zip.readUInt16LE(offset + 26));
    if (localName !== name) throw new Error(`local header names ${localName}, central directory ${name}`);
    if (zip.readUInt16LE(offset + 6) !== flags) throw new Error(`local and central flags of ${name} differ`);
    // APPNOTE 4.4.4: with bit 3 the local CRC and sizes are zero, and the data descriptor after the data has them.
    if (zip.readUInt32LE(offset + 14) !== (described ? 0 : crc)) throw new Error(`local and central CRC-32 of ${name} differ`);
    const dataStart = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28);
    const body = zip.subarray(dataStart, dataStart + compressed);
    if (described) {
      const d = dataStart + compressed;
      if (zip.readUInt32LE(d) !== 0x08074b50 || zip.readUInt32LE(d + 4) !== crc) throw new Error(`${name}: no data descriptor with its CRC-32`);
      const sizes = zip64 ? [Number(zip.readBigUInt64LE(d + 8)), Number(zip.readBigUInt64LE(d + 16))] : [zip.readUInt32LE(d + 8), zip.readUInt32LE(d + 12)];
      if (sizes[0] !== compressed || sizes[1] !== length) throw new Error(`${name}: the data descriptor's sizes differ from the central directory's`);
    }
    const data = method === 8 ? zlib.inflateRawSync(body) : method === 0 ? Buffer.from(body) : null;
    if (data === null) throw new Error(`${name}: compression method ${method}`);
    if (data.length !== length) throw new Error(`${name}: ${data.length} bytes, the directory says ${length}`);
    if (zlib.crc32(data) !== crc) throw new Error(`${name}: CRC-32 mismatch`);
    files.push({ name, data, deflated: method === 8, zip64, described });
    p += 46 + nameLength + extraLength + commentLength;
  }
  if (p !== start + size) throw new Error(`the central directory is ${p - start} bytes, the end record says ${size}`);
  return files;
}
