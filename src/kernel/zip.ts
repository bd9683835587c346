/**
 * The ZIP archives `.npz` files are (PKWARE's APPNOTE 6.3: local headers, a central directory, its
 * end record, and the Zip64 records past 4 GiB or 65535 members), as Python's `zipfile` writes them
 * for `numpy.savez`: members stored, or compressed with raw DEFLATE (`node:zlib`), each checked by
 * its CRC-32.
 *
 * @module
 */

import { deflateRawSync, inflateRawSync } from "node:zlib";

/** One member of an archive: its name and its (uncompressed) bytes. */
export interface ZipEntry {
  /** The member's name, `/`-separated. */
  readonly name: string;
  /** Its contents. */
  readonly data: Uint8Array;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/**
 * The CRC-32 of `bytes` (the reflected polynomial 0xEDB88320 of ZIP, PNG and zlib).
 *
 * @example
 * ```ts
 * import { crc32 } from "./zip.ts";
 * console.log(crc32(new TextEncoder().encode("123456789")).toString(16)); // cbf43926
 * ```
 */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const END64 = 0x06064b50;
const LOCATOR64 = 0x07064b50;
const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
/** DOS date 1980-01-01 (time 00:00): members carry no time, so equal arrays give equal files. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

/** Options of {@link writeZip}. */
export interface WriteZipOptions {
  /** Compress each member with DEFLATE (method 8); otherwise store it (method 0). */
  readonly compress: boolean;
  /** Write Zip64 records even where sizes and offsets fit 32 bits (as `zipfile`'s `force_zip64`). Default false. */
  readonly zip64?: boolean;
}

/**
 * An archive of `entries`, in order.
 *
 * @example
 * ```ts
 * import { readZip, writeZip } from "./zip.ts";
 * const bytes = writeZip([{ name: "a.txt", data: new TextEncoder().encode("hi") }], { compress: true });
 * console.log(readZip(bytes, (why) => { throw new Error(why); })[0]!.name); // a.txt
 * ```
 */
export function writeZip(entries: readonly ZipEntry[], options: WriteZipOptions): Uint8Array {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBytes = encoder.encode(name);
    const body = options.compress ? new Uint8Array(deflateRawSync(data)) : data;
    const crc = crc32(data);
    const wide = options.zip64 === true || data.length >= MAX32 || body.length >= MAX32 || offset >= MAX32;
    const version = wide ? 45 : 20;
    const flags = /^[\x20-\x7e]*$/.test(name) ? 0 : 0x0800; // bit 11: the name is UTF-8
    const method = options.compress ? 8 : 0;
    const local = new DataView(new ArrayBuffer(30 + nameBytes.length + (wide ? 20 : 0)));
    local.setUint32(0, LOCAL, true);
    local.setUint16(4, version, true);
    local.setUint16(6, flags, true);
    local.setUint16(8, method, true);
    local.setUint16(12, DOS_DATE, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, wide ? MAX32 : body.length, true);
    local.setUint32(22, wide ? MAX32 : data.length, true);
    local.setUint16(26, nameBytes.length, true);
    local.setUint16(28, wide ? 20 : 0, true);
    new Uint8Array(local.buffer).set(nameBytes, 30);
    if (wide) {
      const at = 30 + nameBytes.length;
      local.setUint16(at, 1, true);
      local.setUint16(at + 2, 16, true);
      local.setBigUint64(at + 4, BigInt(data.length), true);
      local.setBigUint64(at + 12, BigInt(body.length), true);
    }
    const entry = new DataView(new ArrayBuffer(46 + nameBytes.length + (wide ? 28 : 0)));
    entry.setUint32(0, CENTRAL, true);
    entry.setUint16(4, (3 << 8) | version, true); // made by: Unix
    entry.setUint16(6, version, true);
    entry.setUint16(8, flags, true);
    entry.setUint16(10, method, true);
    entry.setUint16(14, DOS_DATE, true);
    entry.setUint32(16, crc, true);
    entry.setUint32(20, wide ? MAX32 : body.length, true);
    entry.setUint32(24, wide ? MAX32 : data.length, true);
    entry.setUint16(28, nameBytes.length, true);
    entry.setUint16(30, wide ? 28 : 0, true);
    entry.setUint32(38, (0o100644 << 16) >>> 0, true); // a regular file, rw-r--r--
    entry.setUint32(42, wide ? MAX32 : offset, true);
    new Uint8Array(entry.buffer).set(nameBytes, 46);
    if (wide) {
      const at = 46 + nameBytes.length;
      entry.setUint16(at, 1, true);
      entry.setUint16(at + 2, 24, true);
      entry.setBigUint64(at + 4, BigInt(data.length), true);
      entry.setBigUint64(at + 12, BigInt(body.length), true);
      entry.setBigUint64(at + 20, BigInt(offset), true);
    }
    parts.push(new Uint8Array(local.buffer), body);
    central.push(new Uint8Array(entry.buffer));
    offset += local.byteLength + body.length;
  }
  const centralSize = central.reduce((sum, part) => sum + part.length, 0);
  const wide = options.zip64 === true || entries.length >= MAX16 || offset >= MAX32 || centralSize >= MAX32;
  const tail = new DataView(new ArrayBuffer((wide ? 56 + 20 : 0) + 22));
  let at = 0;
  if (wide) {
    tail.setUint32(0, END64, true);
    tail.setBigUint64(4, 44n, true);
    tail.setUint16(12, (3 << 8) | 45, true);
    tail.setUint16(14, 45, true);
    tail.setBigUint64(24, BigInt(entries.length), true);
    tail.setBigUint64(32, BigInt(entries.length), true);
    tail.setBigUint64(40, BigInt(centralSize), true);
    tail.setBigUint64(48, BigInt(offset), true);
    tail.setUint32(56, LOCATOR64, true);
    tail.setBigUint64(64, BigInt(offset + centralSize), true);
    tail.setUint32(72, 1, true);
    at = 76;
  }
  tail.setUint32(at, END, true);
  tail.setUint16(at + 8, wide ? MAX16 : entries.length, true);
  tail.setUint16(at + 10, wide ? MAX16 : entries.length, true);
  tail.setUint32(at + 12, wide ? MAX32 : centralSize, true);
  tail.setUint32(at + 16, wide ? MAX32 : offset, true);
  const all = [...parts, ...central, new Uint8Array(tail.buffer)];
  const out = new Uint8Array(all.reduce((sum, part) => sum + part.length, 0));
  let pos = 0;
  for (const part of all) {
    out.set(part, pos);
    pos += part.length;
  }
  return out;
}

/**
 * The members of the archive `bytes`, found through its central directory, decompressed and checked
 * against their CRC-32s. `fail` is called with the reason (and must throw) where the bytes are not an
 * archive this reads: truncated, encrypted, compressed by a method other than store or DEFLATE, or
 * corrupt.
 *
 * @example
 * ```ts
 * import { readZip, writeZip } from "./zip.ts";
 * const bytes = writeZip([{ name: "a", data: Uint8Array.of(1, 2) }], { compress: false });
 * console.log(readZip(bytes, (why) => { throw new Error(why); })[0]!.data); // Uint8Array [1, 2]
 * ```
 */
export function readZip(bytes: Uint8Array, fail: (detail: string) => never): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  const u64 = (at: number) => Number(view.getBigUint64(at, true));
  const need = (at: number, length: number, what: string) => {
    if (at < 0 || at + length > bytes.length) fail(`${what} runs past the end of the file; it is truncated`);
  };
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - MAX16); at--) {
    if (u32(at) === END) {
      end = at;
      break;
    }
  }
  if (end < 0) fail("not a zip archive (it has no end-of-central-directory record)");
  let count = u16(end + 10), size = u32(end + 12), start = u32(end + 16);
  if (end >= 20 && u32(end - 20) === LOCATOR64) {
    const record = u64(end - 12);
    need(record, 56, "the Zip64 end record");
    if (u32(record) !== END64) fail("its Zip64 locator points at no Zip64 end record");
    count = u64(record + 32);
    size = u64(record + 40);
    start = u64(record + 48);
  }
  need(start, size, "the central directory");
  const decoder = new TextDecoder();
  const entries: ZipEntry[] = [];
  for (let i = 0, at = start; i < count; i++) {
    need(at, 46, "the central directory");
    if (u32(at) !== CENTRAL) fail(`central directory entry ${i} has a bad signature`);
    const flags = u16(at + 8), method = u16(at + 10), crc = u32(at + 16);
    let packed = u32(at + 20), length = u32(at + 24), local = u32(at + 42);
    const nameLength = u16(at + 28), extraLength = u16(at + 30), commentLength = u16(at + 32);
    need(at + 46, nameLength + extraLength, "the central directory");
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    for (let x = at + 46 + nameLength; x + 4 <= at + 46 + nameLength + extraLength;) {
      const id = u16(x), dataSize = u16(x + 2);
      if (id === 1) {
        let field = x + 4;
        const next = () => {
          const value = u64(field);
          field += 8;
          return value;
        };
        if (length === MAX32) length = next();
        if (packed === MAX32) packed = next();
        if (local === MAX32) local = next();
      }
      x += 4 + dataSize;
    }
    if (flags & 1) fail(`member "${name}" is encrypted`);
    if (method !== 0 && method !== 8) {
      fail(
        `member "${name}" is compressed with method ${method}; .npz members are stored (0) or deflated (8)`,
      );
    }
    need(local, 30, `member "${name}"`);
    if (u32(local) !== LOCAL) fail(`member "${name}" has no local header where the directory says`);
    const dataStart = local + 30 + u16(local + 26) + u16(local + 28);
    need(dataStart, packed, `member "${name}"`);
    const body = bytes.subarray(dataStart, dataStart + packed);
    let data: Uint8Array = body;
    if (method === 8) {
      try {
        data = new Uint8Array(inflateRawSync(body));
      } catch {
        fail(`member "${name}" holds corrupt DEFLATE data`);
      }
    }
    if (data.length !== length || crc32(data) !== crc) {
      fail(`member "${name}" fails its CRC-32 check; the file is corrupt`);
    }
    entries.push({ name, data });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
