/**
 * Reading and writing NumPy `.npy` files (format versions 1.0, 2.0 and 3.0), as specified in
 * https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html: the one implementation the
 * command line's `@file.npy` arguments and `--out` files and the array module's `save`/`load` share.
 *
 * @module
 */

import { type DType, dtypeOf, DTYPES, type TypedArray } from "./dtype.ts";
import { oneLine } from "./one_line.ts";

export type { DType, TypedArray } from "./dtype.ts";

/**
 * A `.npy` file that cannot be read: not a `.npy` file, truncated, or holding a dtype cudeno does not
 * have. The message, on one line, says which and how to fix it.
 *
 * @example
 * ```ts
 * import { NpyError, readNpy } from "./npy.ts";
 * try {
 *   readNpy(new TextEncoder().encode("x,y\n1,2\n"), "table.npy");
 * } catch (error) {
 *   if (error instanceof NpyError) console.error(error.message); // Cannot read table.npy: not a .npy file ...
 * }
 * ```
 */
export class NpyError extends Error {
  /** Creates the error. */
  constructor(message: string) {
    super(oneLine(String(message ?? "")));
    this.name = "NpyError";
  }
}

/** An array read from a `.npy` file: its element type, its shape and a fresh copy of its data in C order. */
export interface NpyArray {
  /** The element type; a `|V2` (raw 2-byte) file is read as bfloat16 bits. */
  dtype: DType;
  /** The shape, outermost dimension first; `[]` for a 0-d array, which holds one element. */
  shape: number[];
  /** The elements in C order (a Fortran-order file is reordered), in a newly allocated (so aligned) typed array. */
  data: TypedArray;
}

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // "\x93NUMPY"
const ALIGN = 64;
/** NumPy leaves room in the header for the first dimension to grow to this many digits. */
const GROWTH_DIGITS = 21;
const MAX_DIMS = 64;
const MAX_NESTING = 8;

/** The type codes (descr without byte order) cudeno reads, and the DType each becomes. */
const CODES: Readonly<Record<string, DType>> = {
  f2: "float16",
  f4: "float32",
  f8: "float64",
  i1: "int8",
  u1: "uint8",
  b1: "bool",
  i2: "int16",
  u2: "uint16",
  i4: "int32",
  u4: "uint32",
  i8: "int64",
  u8: "uint64",
  V2: "bfloat16",
  c8: "complex64",
  c16: "complex128",
};

/**
 * Reads a `.npy` file (format 1.0, 2.0 or 3.0) of a little-endian numeric or bool dtype, in C or
 * Fortran order (returned in C order). A `|V2` array (how NumPy saves bfloat16) is read as bfloat16
 * bits in a Uint16Array.
 *
 * @param bytes The whole file.
 * @param name The file's name, used in error messages.
 * @returns The dtype, the shape and a copy of the data.
 * @throws {NpyError} If the file is not a `.npy` file, is truncated or has trailing bytes, or holds a
 * dtype cudeno cannot use (big-endian, structured, complex, strings, objects).
 *
 * @example
 * ```ts
 * import { readNpy, writeNpy } from "./npy.ts";
 * const { dtype, shape, data } = readNpy(writeNpy(new Float32Array([1, 2, 3, 4, 5, 6]), [2, 3]));
 * console.log(dtype, shape, data); // "float32" [2, 3] Float32Array(6) [1, 2, 3, 4, 5, 6]
 * ```
 */
export function readNpy(bytes: Uint8Array, name = ".npy data"): NpyArray {
  const fail = (detail: string): never => {
    throw new NpyError(`Cannot read ${name}: ${detail}`);
  };
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    fail(
      "this is a .npz (zip) archive, not a .npy file; save a single array with numpy.save, " +
        "or load the archive with ga.load() through a path ending in .npz",
    );
  }
  if (bytes.length === 0 || MAGIC.some((byte, i) => i < bytes.length && bytes[i] !== byte)) {
    fail("not a .npy file (it does not start with \\x93NUMPY); save the array with numpy.save");
  }
  if (bytes.length < 8) fail(`the file ends inside its preamble after ${bytes.length} bytes`);
  const version = `${bytes[6]}.${bytes[7]}`;
  if (version !== "1.0" && version !== "2.0" && version !== "3.0") {
    fail(`unsupported .npy format version ${version}; cudeno reads versions 1.0, 2.0 and 3.0`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerStart = version === "1.0" ? 10 : 12;
  if (bytes.length < headerStart) fail(`the file ends inside its preamble after ${bytes.length} bytes`);
  const headerLength = version === "1.0" ? view.getUint16(8, true) : view.getUint32(8, true);
  const dataStart = headerStart + headerLength;
  const available = bytes.length - headerStart;
  if (dataStart > bytes.length) {
    fail(`the header is ${headerLength} bytes but only ${available} follow; the file is truncated`);
  }
  const headerBytes = bytes.subarray(headerStart, dataStart);
  let text: string;
  if (version === "3.0") {
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(headerBytes);
    } catch {
      return fail("the header is not valid UTF-8; re-save the array with numpy.save");
    }
  } else {
    text = latin1(headerBytes);
  }
  const header = parseHeader(text, version !== "3.0", fail);
  const count = header.shape.includes(0) ? 0 : header.shape.reduce((product, dim) => product * dim, 1);
  const info = DTYPES[header.dtype];
  const expected = count * info.size;
  if (!Number.isSafeInteger(expected)) fail(`the shape (${header.shape.join(", ")}) is too large`);
  const actual = bytes.length - dataStart;
  const shape = `(${header.shape.join(", ")}) of ${info.npy}`;
  if (actual < expected) {
    fail(`shape ${shape} needs ${expected} data bytes but the file has ${actual}; the file is truncated`);
  }
  if (actual > expected) {
    fail(
      `shape ${shape} needs ${expected} data bytes but the file has ${actual}; ` +
        "a .npy file holds one array, so save each array to its own file",
    );
  }
  const data = new info.array(count * info.parts);
  new Uint8Array(data.buffer).set(bytes.subarray(dataStart));
  return {
    dtype: header.dtype,
    shape: header.shape,
    data: header.fortran ? fromFortranOrder(data, header.shape) : data,
  };
}

/** The elements of a Fortran-order (column-major) array of `shape`, in C order. */
function fromFortranOrder(data: TypedArray, shape: readonly number[]): TypedArray {
  if (shape.filter((d) => d > 1).length < 2) return data;
  const from = data as unknown as number[];
  const out = new (data.constructor as new (n: number) => TypedArray)(data.length);
  const to = out as unknown as number[];
  const parts = data.length / Math.max(1, shape.reduce((a, b) => a * b, 1));
  // Walk the C order, keeping the element's Fortran offset (strides 1, d0, d0 d1, ...) as we go.
  const strides = shape.map((_, k) => shape.slice(0, k).reduce((a, b) => a * b, 1));
  const index = shape.map(() => 0);
  let f = 0;
  for (let c = 0; c < data.length / parts; c++) {
    for (let j = 0; j < parts; j++) to[c * parts + j] = from[f * parts + j]!;
    for (let k = shape.length - 1; k >= 0; k--) {
      f += strides[k]!;
      if (++index[k]! < shape[k]!) break;
      f -= strides[k]! * shape[k]!;
      index[k] = 0;
    }
  }
  return out;
}

/**
 * Writes an array as a version 1.0 `.npy` file, byte for byte as `numpy.save` writes it: the header
 * `{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }` padded with spaces to a 64-byte boundary
 * and ended by `'\n'`, then the data in C order. bfloat16 is written as `<V2`, which NumPy loads as raw
 * 2-byte values (view them with `ml_dtypes.bfloat16`).
 *
 * @param data The elements in C order.
 * @param shape The shape; defaults to `[data.length]`.
 * @param dtype The element type; defaults to the typed array's own (use it to write `bool` or `bfloat16`).
 * @returns The file's bytes.
 * @throws {TypeError} If `dtype` is not stored in `data`'s kind of typed array.
 * @throws {RangeError} If the shape is not a list of at most 64 non-negative integers whose product is
 * `data.length`.
 *
 * @example
 * ```ts
 * import { writeNpy } from "./npy.ts";
 * const file = writeNpy(new Int32Array(12), [3, 4]);
 * console.log(file.length); // 176: a 128-byte header, then 48 bytes of data
 * ```
 */
export function writeNpy(data: TypedArray, shape: number[] = [data.length], dtype?: DType): Uint8Array {
  const info = DTYPES[dtype ?? dtypeOf(data)];
  if (!(data instanceof info.array)) {
    throw new TypeError(
      `Cannot write ${data.constructor.name} data as ${info.name} to .npy: ${info.name} is kept in ${info.array.name}`,
    );
  }
  const listed = `[${shape.join(", ")}]`;
  if (shape.length > MAX_DIMS || !shape.every((dim) => Number.isSafeInteger(dim) && dim >= 0)) {
    throw new RangeError(
      `Cannot write shape ${listed} to .npy: give at most ${MAX_DIMS} non-negative integers`,
    );
  }
  const count = shape.includes(0) ? 0 : shape.reduce((product, dim) => product * dim, 1);
  if (count * info.parts !== data.length) {
    throw new RangeError(
      `Cannot write shape ${listed} to .npy: it holds ${count} elements but the data has ${
        data.length / info.parts
      }`,
    );
  }
  const dims = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
  let header = `{'descr': '${info.npy}', 'fortran_order': False, 'shape': ${dims}, }`;
  if (shape.length > 0) header += " ".repeat(GROWTH_DIGITS - String(shape[0]).length);
  // Like NumPy, pad with 1 to 64 spaces (never 0) so that magic, length and header end on a boundary.
  header += " ".repeat(ALIGN - (10 + header.length + 1) % ALIGN) + "\n";
  const out = new Uint8Array(10 + header.length + data.byteLength);
  out.set(MAGIC);
  out[6] = 1;
  new DataView(out.buffer).setUint16(8, header.length, true);
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), 10 + header.length);
  return out;
}

function latin1(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}

/** The values a header may hold: strings, bools, integers, tuples and (to reject structured dtypes) lists. */
type PyValue = string | boolean | number | { tuple: PyValue[] } | { list: PyValue[] };

interface Header {
  dtype: DType;
  shape: number[];
  fortran: boolean;
}

/** Parses the header's Python dict literal (a strict subset of Python syntax) and checks its three keys. */
function parseHeader(text: string, python2: boolean, fail: (detail: string) => never): Header {
  let pos = 0;
  const syntax = (what: string): never => {
    const found = pos < text.length ? `${JSON.stringify(text[pos])} at character ${pos + 1}` : "the end";
    return fail(
      `the header is not a valid NumPy header (expected ${what}, found ${found}); re-save the array with numpy.save`,
    );
  };
  const space = () => {
    while (pos < text.length && " \t\r\n".includes(text[pos])) pos++;
  };
  const take = (char: string): boolean => {
    space();
    if (text[pos] !== char) return false;
    pos++;
    return true;
  };
  const string = (): string => {
    const quote = text[pos++];
    const start = pos;
    while (pos < text.length && text[pos] !== quote && text[pos] !== "\\" && text[pos] !== "\n") pos++;
    if (text[pos] !== quote) syntax(`a closing ${quote}`);
    return text.slice(start, pos++);
  };
  /** Reads comma-separated values up to `close`, and whether a comma followed the last one. */
  const sequence = (close: string, depth: number): { items: PyValue[]; comma: boolean } => {
    const items: PyValue[] = [];
    let comma = false;
    while (!take(close)) {
      if (items.length > 0 && !comma) syntax(`',' or '${close}'`);
      items.push(value(depth + 1));
      comma = take(",");
    }
    return { items, comma };
  };
  const word = /True|False|[0-9]+L?(?![A-Za-z0-9_])/y;
  const value = (depth: number): PyValue => {
    if (depth > MAX_NESTING) fail("the header nests tuples too deeply; re-save the array with numpy.save");
    space();
    const char = text[pos];
    if (char === "'" || char === '"') return string();
    if (char === "[" || char === "(") {
      pos++;
      const { items, comma } = sequence(char === "[" ? "]" : ")", depth);
      if (char === "[") return { list: items };
      // `(3)` is the number 3 in Python; only a comma (or nothing) makes a tuple.
      return items.length === 1 && !comma ? items[0] : { tuple: items };
    }
    word.lastIndex = pos;
    const match = word.exec(text)?.[0];
    if (match === undefined) return syntax("a string, True, False, an integer or a tuple");
    pos += match.length;
    if (match === "True" || match === "False") return match === "True";
    if (match.endsWith("L") && !python2) syntax("an integer without an L suffix");
    return Number.parseInt(match, 10);
  };

  if (!take("{")) syntax("'{'");
  const entries = new Map<string, PyValue>();
  let comma = false;
  while (!take("}")) {
    if (entries.size > 0 && !comma) syntax("',' or '}'");
    space();
    if (text[pos] !== "'" && text[pos] !== '"') syntax("a quoted key or '}'");
    const key = string();
    if (entries.has(key)) fail(`the header gives '${key}' twice; re-save the array with numpy.save`);
    if (!take(":")) syntax("':'");
    entries.set(key, value(0));
    comma = take(",");
  }
  space();
  if (pos < text.length) syntax("only spaces after the dict");

  for (const key of entries.keys()) {
    if (key !== "descr" && key !== "fortran_order" && key !== "shape") {
      fail(
        `the header has an unexpected key '${key}'; a .npy header has only descr, fortran_order and shape`,
      );
    }
  }
  const descr = entries.get("descr");
  const fortran = entries.get("fortran_order");
  const shape = entries.get("shape");
  if (descr === undefined || fortran === undefined || shape === undefined) {
    const missing = ["descr", "fortran_order", "shape"].filter((key) => !entries.has(key));
    return fail(
      `the header lacks ${missing.map((key) => `'${key}'`).join(" and ")}; re-save it with numpy.save`,
    );
  }
  if (typeof fortran !== "boolean") fail("the header's fortran_order is not True or False");
  if (
    typeof shape !== "object" || !("tuple" in shape) ||
    !shape.tuple.every((dim) => typeof dim === "number" && Number.isSafeInteger(dim))
  ) {
    return fail("the header's shape is not a tuple of integers; re-save the array with numpy.save");
  }
  const dims = shape.tuple as number[];
  if (dims.length > MAX_DIMS) {
    fail(`the shape has ${dims.length} dimensions; NumPy allows at most ${MAX_DIMS}`);
  }
  return { dtype: parseDescr(descr, fail), shape: dims, fortran: fortran as boolean };
}

function parseDescr(descr: PyValue, fail: (detail: string) => never): DType {
  if (typeof descr === "object" && "list" in descr) {
    fail("structured arrays (a list descr) are not supported; save each field as its own array");
  }
  if (typeof descr !== "string") return fail("the header's descr is not a type string such as '<f4'");
  const order = "<>=|".includes(descr[0]) ? descr[0] : "";
  const code = descr.slice(order.length);
  const dtype = Object.hasOwn(CODES, code) ? CODES[code] : undefined;
  if (dtype === undefined) {
    return fail(
      `unsupported dtype '${descr}'; cudeno reads float16/32/64, complex64/128, int8/16/32/64, uint8/16/32/64, bool and |V2 ` +
        "(bfloat16 bits): convert with arr.astype(np.float32) or similar",
    );
  }
  const oneByte = DTYPES[dtype].size === 1;
  if (order === ">" && !oneByte) {
    fail(`big-endian data ('${descr}') is not supported; save with arr.astype('<${code}')`);
  }
  if (order === "|" && !oneByte && code !== "V2") {
    fail(`the descr '${descr}' gives no byte order for a ${code.slice(1)}-byte type; write '<${code}'`);
  }
  return dtype;
}
