/**
 * Kernel argument blocks: one buffer per kernel, laid out once from the parsed signature, into which
 * each launch writes its values in place. CUDA receives an array of pointers into it
 * (`kernelParams`); OpenCL receives one pointer per `clSetKernelArg`. A launch allocates nothing.
 *
 * @module
 */

import { bfloat16Bits } from "./bfloat16.ts";
import type { VectorType } from "./ctypes.ts";
import { type DType, DTYPES } from "./dtype.ts";
import type { KernelParam } from "./signature.ts";

/** Turns whatever a pointer argument may be (an allocation, a buffer, a bigint address) into its 64-bit value. */
export type PointerResolver = (value: unknown, param: KernelParam, kernel: string) => bigint;

/** Writes one argument's value at its offset, checking that it fits the declared type. */
type SlotWriter = (
  view: DataView,
  offset: number,
  value: unknown,
  param: KernelParam,
  kernel: string,
) => void;

const SCALAR_SIZES: Record<DType, number> = {
  float32: 4,
  float64: 8,
  float16: 2,
  bfloat16: 2,
  int8: 1,
  uint8: 1,
  int16: 2,
  uint16: 2,
  int32: 4,
  uint32: 4,
  int64: 8,
  uint64: 8,
  bool: 1,
  complex64: 8,
  complex128: 16,
};

function describe(param: KernelParam, kernel: string): string {
  return `${kernel}() parameter ${param.index + 1} (${param.text} ${param.name})`;
}

function shown(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null) return "null";
  const kind = typeof value === "object" ? value.constructor?.name ?? "object" : typeof value;
  const length = Array.isArray(value) || ArrayBuffer.isView(value)
    ? ` of length ${(value as ArrayLike<unknown>).length}`
    : "";
  return `${/^[aeiouAEIOU]/.test(kind) ? "an" : "a"} ${kind}${length}`;
}

function integerWriter(bits: 8 | 16 | 32, signed: boolean): SlotWriter {
  const min = signed ? -(2 ** (bits - 1)) : 0;
  const max = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
  return (view, offset, value, param, kernel) => {
    const v = typeof value === "bigint" ? Number(value) : value;
    if (typeof v !== "number" || !Number.isInteger(v)) {
      throw new TypeError(`Cannot pass ${shown(value)} to ${describe(param, kernel)}: it needs an integer`);
    }
    if (v < min || v > max) {
      throw new RangeError(
        `Cannot pass ${shown(value)} to ${describe(param, kernel)}: it holds ${min} to ${max}`,
      );
    }
    if (bits === 8) view.setUint8(offset, v & 0xff);
    else if (bits === 16) view.setUint16(offset, v & 0xffff, true);
    else view.setUint32(offset, v >>> 0, true);
  };
}

function int64Writer(signed: boolean): SlotWriter {
  const min = signed ? -(2n ** 63n) : 0n;
  const max = signed ? 2n ** 63n - 1n : 2n ** 64n - 1n;
  return (view, offset, value, param, kernel) => {
    let v: bigint;
    if (typeof value === "bigint") v = value;
    else if (typeof value === "number" && Number.isSafeInteger(value)) v = BigInt(value);
    else {
      throw new TypeError(
        `Cannot pass ${shown(value)} to ${describe(param, kernel)}: it needs a bigint or a safe integer`,
      );
    }
    if (v < min || v > max) {
      throw new RangeError(
        `Cannot pass ${shown(value)} to ${describe(param, kernel)}: it holds ${min} to ${max}`,
      );
    }
    view.setBigUint64(offset, BigInt.asUintN(64, v), true);
  };
}

function floatWriter(set: (view: DataView, offset: number, v: number) => void): SlotWriter {
  return (view, offset, value, param, kernel) => {
    if (typeof value !== "number") {
      throw new TypeError(`Cannot pass ${shown(value)} to ${describe(param, kernel)}: it needs a number`);
    }
    set(view, offset, value);
  };
}

const WRITERS: Record<DType, SlotWriter> = {
  float32: floatWriter((view, offset, v) => view.setFloat32(offset, v, true)),
  float64: floatWriter((view, offset, v) => view.setFloat64(offset, v, true)),
  float16: floatWriter((view, offset, v) => view.setFloat16(offset, v, true)),
  bfloat16: floatWriter((view, offset, v) => view.setUint16(offset, bfloat16Bits(v), true)),
  int8: integerWriter(8, true),
  uint8: integerWriter(8, false),
  int16: integerWriter(16, true),
  uint16: integerWriter(16, false),
  int32: integerWriter(32, true),
  uint32: integerWriter(32, false),
  int64: int64Writer(true),
  uint64: int64Writer(false),
  bool: (view, offset, value, param, kernel) => {
    if (typeof value !== "boolean" && value !== 0 && value !== 1) {
      throw new TypeError(
        `Cannot pass ${shown(value)} to ${describe(param, kernel)}: it needs true, false, 0 or 1`,
      );
    }
    view.setUint8(offset, value ? 1 : 0);
  },
  complex64: complexWriter(4),
  complex128: complexWriter(8),
};

/** A complex number: a number (real) or a pair `[re, im]`, as two floats of `bytes` each. */
function complexWriter(bytes: 4 | 8): SlotWriter {
  return (view, offset, value, param, kernel) => {
    const [re, im] = typeof value === "number" ? [value, 0] : Array.isArray(value) ? value : [];
    if (typeof re !== "number" || typeof im !== "number") {
      throw new TypeError(
        `Cannot pass ${shown(value)} to ${describe(param, kernel)}: it needs a number or a pair [re, im]`,
      );
    }
    if (bytes === 4) {
      view.setFloat32(offset, re, true);
      view.setFloat32(offset + 4, im, true);
    } else {
      view.setFloat64(offset, re, true);
      view.setFloat64(offset + 8, im, true);
    }
  };
}

/**
 * Writes a vector (CUDA's `float3`, OpenCL's `int4`) from an array or typed array of exactly its
 * lanes, each element checked as its scalar type is; an OpenCL 3-vector's fourth slot is left zero.
 */
function vectorWriter(vector: VectorType, param: KernelParam): SlotWriter {
  const write = WRITERS[vector.element];
  const step = SCALAR_SIZES[vector.element];
  // Each element is checked as a parameter of its own, `float v[1]`, for messages.
  const text = DTYPES[vector.element].cuda;
  const lanes = Array.from(
    { length: vector.lanes },
    (_, i) => ({ ...param, text, name: `${param.name}[${i}]` }),
  );
  return (view, offset, value, param, kernel) => {
    const values = value as ArrayLike<unknown>;
    if (!(Array.isArray(value) || ArrayBuffer.isView(value)) || values.length !== vector.lanes) {
      throw new TypeError(
        `Cannot pass ${shown(value)} to ${describe(param, kernel)}: it takes ${vector.lanes} values of ${
          DTYPES[vector.element].cuda
        }, as an array or typed array of length ${vector.lanes}`,
      );
    }
    for (let i = 0; i < vector.lanes; i++) {
      write(view, offset + i * step, values[i], lanes[i]!, kernel);
    }
  };
}

/** `resolve(value)`, with an error that does not say which parameter it was given for made to say so. */
function resolveFor(resolve: PointerResolver, value: unknown, param: KernelParam, kernel: string): bigint {
  try {
    return resolve(value, param, kernel);
  } catch (e) {
    // A freed or released buffer says what it is; add which parameter it was given for.
    const where = describe(param, kernel);
    if (!(e instanceof TypeError) || e.message.includes(where)) throw e;
    throw new TypeError(`Cannot pass ${shown(value)} to ${where}: ${e.message}`, { cause: e });
  }
}

/** How a parameter is passed. */
export type SlotKind = "pointer" | "scalar" | "local";

const FAST_NONE = 0, FAST_POINTER = 1, FAST_F32 = 2, FAST_F64 = 3, FAST_I32 = 4, FAST_U32 = 5, FAST_LOCAL = 6;
const FAST_I64 = 7, FAST_U64 = 8;

/** How {@link ArgumentBlock.write} writes a slot without calling its writer. */
function fastKind(slot: ArgumentSlot): number {
  if (slot.kind === "pointer") return FAST_POINTER;
  if (slot.kind === "local") return FAST_LOCAL; // a __local size: 64 bits from its resolver, as a pointer
  const dtype = slot.param.dtype;
  if (dtype === "float32") return FAST_F32;
  if (dtype === "float64") return FAST_F64;
  if (dtype === "int32") return FAST_I32;
  if (dtype === "uint32") return FAST_U32;
  if (dtype === "int64") return FAST_I64;
  if (dtype === "uint64") return FAST_U64;
  return FAST_NONE;
}

/** One parameter's place in the block. */
export interface ArgumentSlot {
  /** The parameter. */
  readonly param: KernelParam;
  /** How it is passed: a device pointer, a scalar by value, or (OpenCL) a `__local` size. */
  readonly kind: SlotKind;
  /** Byte offset in the block. */
  readonly offset: number;
  /** Bytes the value occupies. */
  readonly size: number;
}

/** Where the next slot goes: `offset` rounded up to `align`. */
function aligned(offset: number, align: number): number {
  return Math.ceil(offset / align) * align;
}

/**
 * The argument block of one kernel, laid out once and rewritten in place by each launch.
 *
 * @example
 * ```ts
 * import { ArgumentBlock, parseParameterList } from "@cudeno/cudeno/cuda";
 * const block = new ArgumentBlock("scale", parseParameterList("float *x, float a, int n", "cuda"), () => 0n);
 * block.write(1, 2.5);
 * block.write(2, 1024);
 * console.log(block.view.getFloat32(8, true)); // 2.5
 * ```
 */
export class ArgumentBlock {
  /** The kernel's name, for messages. */
  readonly kernel: string;
  /** The parameters' slots, in order. */
  readonly slots: readonly ArgumentSlot[];
  /** The values, at their natural alignments. */
  readonly storage: ArrayBuffer;
  /** A view over {@link storage} for writing values. */
  readonly view: DataView;
  /** The address of {@link storage}, fixed for the block's life. */
  readonly address: bigint;
  /** `void *kernelParams[]`: the address of each slot's value, as CUDA's cuLaunchKernel takes them. */
  readonly addresses: BigUint64Array;
  // Per slot: the checking writer of a scalar, the resolver of a pointer or __local size.
  readonly #writers: (SlotWriter | undefined)[] = [];
  readonly #resolvers: (PointerResolver | undefined)[] = [];
  // The fast path: per slot, how it is written (FAST_*) and its index in the view of its width.
  readonly #fast: Uint8Array;
  readonly #at: Uint32Array;
  readonly #u64: BigUint64Array;
  readonly #f64: Float64Array;
  readonly #f32: Float32Array;
  readonly #i32: Int32Array;
  readonly #u32: Uint32Array;

  /**
   * Lays out the block for `params`.
   *
   * @throws {TypeError} for a parameter whose type cannot be passed (an unknown struct by value).
   */
  constructor(kernel: string, params: readonly KernelParam[], resolvePointer: PointerResolver) {
    this.kernel = kernel;
    const slots: ArgumentSlot[] = [];
    let offset = 0;
    for (const param of params) {
      let kind: SlotKind;
      let size: number;
      let align: number | undefined;
      if (param.pointer && param.addressSpace === "local") {
        kind = "local";
        size = 8;
        this.#resolvers.push(localSize);
        this.#writers.push(undefined);
      } else if (param.pointer) {
        kind = "pointer";
        size = 8;
        this.#resolvers.push(resolvePointer);
        this.#writers.push(undefined);
      } else if (param.dtype !== undefined) {
        kind = "scalar";
        size = SCALAR_SIZES[param.dtype];
        this.#resolvers.push(undefined);
        this.#writers.push(WRITERS[param.dtype]);
      } else if (param.vector !== undefined) {
        kind = "scalar";
        size = param.vector.size;
        align = param.vector.align;
        this.#resolvers.push(undefined);
        this.#writers.push(vectorWriter(param.vector, param));
      } else {
        throw new TypeError(
          `Cannot pass ${
            describe(param, kernel)
          }: type "${param.base}" by value is not supported; pass a pointer, a scalar type or a vector type`,
        );
      }
      offset = aligned(offset, align ?? size);
      slots.push({ param, kind, offset, size });
      offset += size;
    }
    this.slots = slots;
    this.storage = new ArrayBuffer(Math.max(8, Math.ceil(offset / 8) * 8));
    this.view = new DataView(this.storage);
    this.address = Deno.UnsafePointer.value(Deno.UnsafePointer.of(this.storage));
    this.addresses = new BigUint64Array(slots.map((s) => this.address + BigInt(s.offset)));
    this.#u64 = new BigUint64Array(this.storage);
    this.#f64 = new Float64Array(this.storage);
    this.#f32 = new Float32Array(this.storage);
    this.#i32 = new Int32Array(this.storage);
    this.#u32 = new Uint32Array(this.storage);
    this.#fast = Uint8Array.from(slots, fastKind);
    // Offsets of the fast slots are aligned to the value's size, so each is a whole index into the view
    // of that width (a vector's slot is written by its writer, never through these views).
    this.#at = Uint32Array.from(slots, (s) => Math.floor(s.offset / s.size));
  }

  /** Writes argument `index`, checking it against the declared type. */
  write(index: number, value: unknown): void {
    // Written here, through typed-array views (the machine's byte order, little endian on every
    // platform CUDA and PoCL run on): pointers and __local sizes, and the common scalars with no call;
    // other scalars, and every value that fails these checks, go to the slot's checking writer.
    const at = this.#at[index]!;
    switch (this.#fast[index]) {
      case FAST_POINTER:
      case FAST_LOCAL:
        // Resolved once (resolving may stage a host array): a failure throws from here.
        this.#u64[at] = resolveFor(this.#resolvers[index]!, value, this.slots[index]!.param, this.kernel);
        return;
      case FAST_F32:
        if (typeof value === "number") {
          this.#f32[at] = value;
          return;
        }
        break;
      case FAST_F64:
        if (typeof value === "number") {
          this.#f64[at] = value;
          return;
        }
        break;
      case FAST_I32:
        if (typeof value === "number" && (value | 0) === value) {
          this.#i32[at] = value;
          return;
        }
        break;
      case FAST_U32:
        if (typeof value === "number" && value >>> 0 === value) {
          this.#u32[at] = value;
          return;
        }
        break;
      case FAST_I64:
      case FAST_U64:
        // A safe integer as two 32-bit halves, with no BigInt made: the low half modulo 2^32, the high
        // half the quotient rounded down (two's complement for a negative value).
        if (
          typeof value === "number" && Number.isSafeInteger(value) &&
          (value >= 0 || this.#fast[index] === FAST_I64)
        ) {
          this.#u32[2 * at] = value >>> 0;
          this.#i32[2 * at + 1] = Math.floor(value / 4294967296);
          return;
        }
        break;
    }
    // Only scalar slots get here, and each has a writer.
    this.#writers[index]!(this.view, this.slots[index]!.offset, value, this.slots[index]!.param, this.kernel);
  }

  /**
   * Writes a device address to pointer argument `index`, for callers that resolved it themselves.
   *
   * @example
   * ```ts
   * import { ArgumentBlock, parseParameterList } from "@cudeno/cudeno/cuda";
   * const block = new ArgumentBlock("scale", parseParameterList("float *x, int n", "cuda"), () => 0n);
   * block.writePointer(0, 0x7f0000000000n);
   * console.log(block.view.getBigUint64(0, true).toString(16)); // 7f0000000000
   * ```
   *
   * @throws {TypeError} when argument `index` is not a pointer.
   */
  writePointer(index: number, address: bigint): void {
    if (this.#fast[index] !== FAST_POINTER) throw notAPointer(this, index);
    this.#u64[this.#at[index]!] = address;
  }
}

function notAPointer(block: ArgumentBlock, index: number): TypeError {
  const slot = block.slots[index];
  return new TypeError(
    slot === undefined
      ? `Cannot write argument ${index + 1} of ${block.kernel}(): it has ${block.slots.length} parameters`
      : `Cannot write an address to ${describe(slot.param, block.kernel)}: it is not a pointer`,
  );
}

/** The value given for an OpenCL `__local` parameter: the number of bytes to reserve per work-group. */
export class LocalMemory {
  readonly #size: number;

  /** Bytes reserved for each work-group. */
  get size(): number {
    return this.#size;
  }

  /**
   * Reserves `size` bytes of local memory per work-group, like PyOpenCL's `cl.LocalMemory`.
   *
   * @example
   * ```ts
   * import { LocalMemory } from "@cudeno/cudeno/opencl";
   * const scratch = new LocalMemory(256 * 4); // pass where the kernel declares `__local float *tmp`
   * ```
   */
  constructor(size: number) {
    if (!Number.isInteger(size) || size <= 0) {
      throw new RangeError(
        `Cannot reserve local memory of ${size} bytes: give a positive integer byte count`,
      );
    }
    this.#size = size;
  }
}

function localSize(value: unknown, param: KernelParam, kernel: string): bigint {
  if (value instanceof LocalMemory) return BigInt(value.size);
  throw new TypeError(
    `Cannot pass ${shown(value)} to ${
      describe(param, kernel)
    }: a __local parameter takes a LocalMemory(bytes)`,
  );
}
