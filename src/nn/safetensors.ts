/**
 * Checkpoints in the safetensors format (Hugging Face's, which `safetensors.torch.load_file` reads): an
 * 8-byte little-endian header length, a JSON header `{name: {dtype, shape, data_offsets}}` with an
 * optional `__metadata__` of strings, then the tensors' little-endian bytes in C order, one after
 * another with no gaps. {@link saveSafetensors} writes a record of arrays; {@link SafetensorsFile}
 * reads the header alone and each tensor when asked; {@link loadSafetensors} reads them all.
 *
 * @module
 */

import type { DType, TypedArray } from "../kernel/dtype.ts";
import { DTYPES } from "../kernel/dtype.ts";
import { GPUArray } from "../array/core/gpuarray.ts";
import { toGpu } from "../array/routines/creation.ts";

/** The element types a safetensors header names, with cudeno's dtype where there is one. */
const FORMAT: Readonly<Record<string, { readonly size: number; readonly dtype?: DType }>> = {
  BOOL: { size: 1, dtype: "bool" },
  U8: { size: 1, dtype: "uint8" },
  I8: { size: 1, dtype: "int8" },
  F8_E5M2: { size: 1 },
  F8_E4M3: { size: 1 },
  F8_E8M0: { size: 1 },
  I16: { size: 2, dtype: "int16" },
  U16: { size: 2, dtype: "uint16" },
  F16: { size: 2, dtype: "float16" },
  BF16: { size: 2, dtype: "bfloat16" },
  I32: { size: 4, dtype: "int32" },
  U32: { size: 4, dtype: "uint32" },
  F32: { size: 4, dtype: "float32" },
  F64: { size: 8, dtype: "float64" },
  I64: { size: 8, dtype: "int64" },
  U64: { size: 8, dtype: "uint64" },
};

const NAME_OF = Object.fromEntries(
  Object.entries(FORMAT).filter(([, f]) => f.dtype !== undefined).map(([name, f]) => [f.dtype!, name]),
) as Readonly<Partial<Record<DType, string>>>;

/** The largest header the format allows (as the reference implementation). */
const MAX_HEADER = 100_000_000;

/** One tensor's entry in a safetensors header. */
export interface SafetensorsInfo {
  /** Its element type as the header names it (`"F32"`, `"BF16"`, ...). */
  readonly format: string;
  /** Its cudeno dtype; undefined for formats cudeno has no arrays of (`F8_E4M3`, ...). */
  readonly dtype: DType | undefined;
  /** Its shape. */
  readonly shape: readonly number[];
  /** Where its bytes are in the data section: `[begin, end)`. */
  readonly dataOffsets: readonly [number, number];
}

function fail(path: string, problem: string): never {
  throw new SyntaxError(`Cannot read safetensors file ${path}: ${problem}`);
}

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

const isCount = (x: unknown): x is number => typeof x === "number" && Number.isSafeInteger(x) && x >= 0;

/** Reads `bytes.length` bytes at `position` of `file`. */
function readAt(file: Deno.FsFile, position: number, bytes: Uint8Array, path: string): void {
  file.seekSync(position, Deno.SeekMode.Start);
  let done = 0;
  while (done < bytes.length) {
    const n = file.readSync(bytes.subarray(done));
    if (n === null || n === 0) {
      fail(path, `it ended at byte ${position + done}, before the ${bytes.length} bytes at ${position}`);
    }
    done += n;
  }
}

/** Writes all of `bytes` to `file`. */
function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) done += file.writeSync(bytes.subarray(done));
}

/** Checks one tensor's header entry. */
function readInfo(path: string, name: string, entry: unknown): SafetensorsInfo {
  const what = `tensor "${name}"`;
  if (!isRecord(entry)) {
    fail(path, `${what} is ${JSON.stringify(entry)}, not an object {dtype, shape, data_offsets}`);
  }
  const format = entry.dtype, shape = entry.shape, offsets = entry.data_offsets;
  if (typeof format !== "string" || FORMAT[format] === undefined) {
    fail(
      path,
      `${what} has dtype ${JSON.stringify(format)}; the format's dtypes are ${
        Object.keys(FORMAT).join(", ")
      }`,
    );
  }
  if (!Array.isArray(shape) || !shape.every(isCount)) {
    fail(path, `${what} has shape ${JSON.stringify(shape)}, not a list of sizes`);
  }
  if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isCount) || offsets[0] > offsets[1]) {
    fail(path, `${what} has data_offsets ${JSON.stringify(offsets)}, not [begin, end] with begin ≤ end`);
  }
  const need = shape.reduce((a: number, b: number) => a * b, 1) * FORMAT[format]!.size;
  if (offsets[1] - offsets[0] !== need) {
    fail(
      path,
      `${what} has data_offsets [${offsets[0]}, ${offsets[1]}], ${offsets[1] - offsets[0]} bytes, but ${
        shape.length === 0 ? "a scalar" : `shape [${shape.join(", ")}]`
      } of ${format} takes ${need}`,
    );
  }
  return { format, dtype: FORMAT[format]!.dtype, shape: [...shape], dataOffsets: [offsets[0], offsets[1]] };
}

/**
 * A safetensors file whose header has been read: its tensors' names, shapes and dtypes, and each
 * tensor's bytes read from the file when {@link get} or {@link getHost} asks for it (the file is opened
 * for each read, not held open).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * nn.saveSafetensors("/tmp/model.safetensors", { "fc.weight": ga.ones([2, 3]) }, { step: "100" });
 * const file = nn.SafetensorsFile.open("/tmp/model.safetensors");
 * console.log(file.keys(), file.info("fc.weight").shape, file.metadata); // ["fc.weight"] [2, 3] { step: "100" }
 * const w = file.get("fc.weight");
 * ```
 */
export class SafetensorsFile {
  /** The file's path. */
  readonly path: string;
  /** The header's `__metadata__` (strings by name); empty where there is none. */
  readonly metadata: Readonly<Record<string, string>>;
  readonly #infos: ReadonlyMap<string, SafetensorsInfo>;
  /** Where the data section starts in the file. */
  readonly #start: number;
  /** The file's size when the header was read. */
  readonly #size: number;

  private constructor(
    path: string,
    metadata: Record<string, string>,
    infos: Map<string, SafetensorsInfo>,
    start: number,
    size: number,
  ) {
    this.path = path;
    this.metadata = metadata;
    this.#infos = infos;
    this.#start = start;
    this.#size = size;
  }

  /**
   * Reads and checks the header of the file at `path`.
   *
   * @throws {SyntaxError} naming the file and the problem when the header is malformed: a length past
   *   the file or over 100 MB, JSON that is not an object, an unknown dtype, offsets that do not fit the
   *   shape and dtype, or tensors that leave gaps, overlap, or do not end where the file does.
   */
  static open(path: string | URL): SafetensorsFile {
    const shown = path instanceof URL ? path.pathname : path;
    using file = Deno.openSync(path, { read: true });
    const size = file.statSync().size;
    if (size < 8) {
      fail(shown, `it is ${size} bytes long; a safetensors file starts with an 8-byte header length`);
    }
    const head = new Uint8Array(8);
    readAt(file, 0, head, shown);
    const length = Number(new DataView(head.buffer).getBigUint64(0, true));
    if (length > MAX_HEADER) {
      fail(shown, `its header length ${length} is over the format's limit of ${MAX_HEADER} bytes`);
    }
    if (8 + length > size) {
      fail(shown, `its header length ${length} runs past the end of the file (${size} bytes)`);
    }
    const bytes = new Uint8Array(length);
    readAt(file, 8, bytes, shown);
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      fail(shown, "its header is not UTF-8 text");
    }
    if (!text.startsWith("{")) {
      fail(shown, `its header starts with ${JSON.stringify(text.slice(0, 16))}, not "{"`);
    }
    let header: unknown;
    try {
      header = JSON.parse(text);
    } catch (e) {
      fail(shown, `its header is not JSON (${(e as Error).message})`);
    }
    if (!isRecord(header)) fail(shown, "its header is not a JSON object");
    let metadata: Record<string, string> = {};
    const infos = new Map<string, SafetensorsInfo>();
    for (const [name, entry] of Object.entries(header)) {
      if (name === "__metadata__") {
        if (!isRecord(entry) || !Object.values(entry).every((v) => typeof v === "string")) {
          fail(shown, `its __metadata__ is ${JSON.stringify(entry)}, not an object of strings`);
        }
        metadata = { ...entry } as Record<string, string>;
      } else {
        infos.set(name, readInfo(shown, name, entry));
      }
    }
    // The tensors' bytes must tile the data section: no gaps, no overlaps, nothing after.
    let end = 0;
    const byOffset = (a: [string, SafetensorsInfo], b: [string, SafetensorsInfo]) =>
      a[1].dataOffsets[0] - b[1].dataOffsets[0] || a[1].dataOffsets[1] - b[1].dataOffsets[1];
    for (const [name, info] of [...infos].sort(byOffset)) {
      const [begin, stop] = info.dataOffsets;
      if (begin !== end) {
        fail(
          shown,
          `tensor "${name}" starts at byte ${begin} of the data, where ${end} was expected (the tensors' bytes must follow one another, without gaps or overlaps)`,
        );
      }
      end = stop;
    }
    const data = size - 8 - length;
    if (end !== data) {
      fail(
        shown,
        `its tensors' bytes end at byte ${end} of the data, but the data section holds ${data} bytes`,
      );
    }
    return new SafetensorsFile(shown, metadata, infos, 8 + length, size);
  }

  /** The tensors' names, sorted (as Python's `safe_open(...).keys()`). */
  keys(): string[] {
    return [...this.#infos.keys()].sort();
  }

  /**
   * Tensor `name`'s header entry.
   *
   * @throws {RangeError} for a name the file does not have.
   */
  info(name: string): SafetensorsInfo {
    const info = this.#infos.get(name);
    if (info === undefined) {
      const names = this.keys();
      throw new RangeError(
        `Cannot find tensor "${name}" in ${this.path}: it has ${
          names.length === 0 ? "no tensors" : names.slice(0, 20).map((n) => `"${n}"`).join(", ") +
            (names.length > 20 ? ", ..." : "")
        }`,
      );
    }
    return info;
  }

  /**
   * Tensor `name`'s elements on the host, read from the file now: a typed array of its dtype's kind
   * (`Uint16Array` of bits for BF16, `Uint8Array` of 0 and 1 for BOOL), in C order.
   *
   * @throws {RangeError} for a name the file does not have.
   * @throws {TypeError} for a format cudeno has no dtype for (the 8-bit floats).
   * @throws {SyntaxError} when the file changed size since it was opened.
   */
  getHost(name: string): TypedArray {
    const info = this.info(name);
    if (info.dtype === undefined) {
      throw new TypeError(
        `Cannot read tensor "${name}" of ${this.path}: its dtype ${info.format} has no cudeno array type`,
      );
    }
    const [begin, end] = info.dataOffsets;
    const bytes = new Uint8Array(end - begin);
    using file = Deno.openSync(this.path, { read: true });
    const size = file.statSync().size;
    if (size !== this.#size) {
      fail(this.path, `it is ${size} bytes now, ${this.#size} when its header was read: open it again`);
    }
    readAt(file, this.#start + begin, bytes, this.path);
    const { array, size: itemsize } = DTYPES[info.dtype];
    return new array(bytes.buffer, 0, bytes.length / itemsize);
  }

  /**
   * Tensor `name` as an array on the active backend, read from the file now.
   *
   * @throws {RangeError} for a name the file does not have.
   * @throws {TypeError} for a dtype the device lacks (read it with {@link getHost} instead).
   */
  get(name: string): GPUArray {
    const info = this.info(name);
    return toGpu(this.getHost(name), info.shape, info.dtype);
  }
}

/**
 * Every tensor of the safetensors file at `path`, as arrays on the active backend, by name.
 *
 * @throws {SyntaxError} naming the file and the problem when it is malformed (see {@link SafetensorsFile.open}).
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * nn.saveSafetensors("/tmp/weights.safetensors", { w: ga.arange(6, "float32").reshape([2, 3]) });
 * const { w } = nn.loadSafetensors("/tmp/weights.safetensors");
 * ```
 */
export function loadSafetensors(path: string | URL): Record<string, GPUArray> {
  const file = SafetensorsFile.open(path);
  const out: Record<string, GPUArray> = {};
  for (const name of file.keys()) out[name] = file.get(name);
  return out;
}

/**
 * Writes `tensors` (a state dict: arrays by name) to a safetensors file at `path`, with `metadata`
 * (strings by name) in the header's `__metadata__`. The tensors are laid out by element size, largest
 * first, then by name, after a header padded to 8 bytes, so each starts aligned to its element size
 * (as the reference implementation writes them). Each array is copied to the host in turn.
 *
 * @throws {TypeError} for a value that is not a GPUArray, a name that is empty or `__metadata__`, or
 *   metadata that is not strings.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const model = new nn.Linear(4, 2);
 * nn.saveSafetensors("/tmp/linear.safetensors", model.stateDict(), { format: "pt" });
 * // Python: safetensors.torch.load_file("/tmp/linear.safetensors") → {"weight": [2, 4], "bias": [2]}
 * ```
 */
export function saveSafetensors(
  path: string | URL,
  tensors: Readonly<Record<string, GPUArray>> | ReadonlyMap<string, GPUArray>,
  metadata?: Readonly<Record<string, string>>,
): void {
  const entries: [string, GPUArray][] = tensors instanceof Map
    ? [...tensors]
    : Object.entries(tensors as Record<string, GPUArray>);
  for (const [name, a] of entries) {
    if (!(a instanceof GPUArray)) {
      throw new TypeError(`Cannot save tensor "${name}" to safetensors: it is ${typeof a}, not a GPUArray`);
    }
    if (name === "" || name === "__metadata__") {
      throw new TypeError(
        `Cannot save a tensor named ${JSON.stringify(name)} to safetensors: the name is reserved`,
      );
    }
  }
  if (
    metadata !== undefined &&
    (!isRecord(metadata) || !Object.values(metadata).every((v) => typeof v === "string"))
  ) {
    throw new TypeError(
      "Cannot save safetensors metadata that is not an object of strings: convert each value with String()",
    );
  }
  for (const [name, a] of entries) {
    if (NAME_OF[a.dtype] === undefined) {
      throw new TypeError(
        `Cannot save the ${a.dtype} tensor ${
          JSON.stringify(name)
        } to safetensors here: save its ga.real() and ga.imag() parts`,
      );
    }
  }
  entries.sort(([na, a], [nb, b]) => b.itemsize - a.itemsize || (na < nb ? -1 : na > nb ? 1 : 0));
  const header: Record<string, unknown> = {};
  if (metadata !== undefined) header.__metadata__ = metadata;
  let offset = 0;
  for (const [name, a] of entries) {
    header[name] = { dtype: NAME_OF[a.dtype], shape: a.shape, data_offsets: [offset, offset + a.nbytes] };
    offset += a.nbytes;
  }
  let json = JSON.stringify(header);
  json += " ".repeat((8 - (new TextEncoder().encode(json).length % 8)) % 8);
  const text = new TextEncoder().encode(json);
  const head = new Uint8Array(8);
  new DataView(head.buffer).setBigUint64(0, BigInt(text.length), true);
  using file = Deno.openSync(path, { write: true, create: true, truncate: true });
  writeAll(file, head);
  writeAll(file, text);
  for (const [, a] of entries) {
    if (a.size === 0) continue;
    const host = a.get() as TypedArray;
    writeAll(file, new Uint8Array(host.buffer, host.byteOffset, host.byteLength));
  }
}
