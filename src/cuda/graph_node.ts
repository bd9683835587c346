/**
 * The nodes of a graph built by hand: kernel launches with typed arguments, copies and sets, each
 * turned into the driver's parameter struct (`CUDA_KERNEL_NODE_PARAMS`, `CUDA_MEMCPY3D`,
 * `CUDA_MEMSET_NODE_PARAMS`). The driver copies a struct, and the arguments it points to, when a node
 * is added or its parameters set, so one struct per node is rewritten in place for each change.
 *
 * @module
 */

import { driver } from "./driver.ts";
import { checkCuda } from "./errors.ts";
import { DeviceAllocation, type DeviceTarget, resolveDevice } from "./memory.ts";
import { PagelockedArray } from "./pinned.ts";
import { HostArgument } from "./inout.ts";
import { type FunctionOwner, functionOwner, type KernelFunction } from "./function.ts";
import { ArgumentBlock } from "../kernel/args.ts";
import { checkLimits, type Dim3, readDim3 } from "../kernel/dims.ts";
import type { KernelParam } from "../kernel/signature.ts";
import type { DType } from "../kernel/dtype.ts";

/** What a node does. */
export type NodeKind = "kernel" | "memcpy" | "memset";

/** What every node may say about its place in the graph. */
export interface NodeOptions {
  /** Nodes of the same graph that must finish before this one starts. Default: none (a root node). */
  readonly after?: readonly GraphNode[];
}

/** A kernel node's launch: `fn()`'s config without a stream (a graph runs on the stream it is launched on). */
export interface KernelNodeConfig extends NodeOptions {
  /** Blocks in the grid, 1 to 3 dimensions. Default 1. */
  readonly grid?: Dim3;
  /** Threads per block, 1 to 3 dimensions. */
  readonly block: Dim3;
  /** Dynamic shared memory per block, in bytes. Default 0. */
  readonly shared?: number;
}

/** What a memcpy node copies from or to: device memory, or page-locked host memory. */
export type CopyEnd = DeviceTarget | PagelockedArray<DType>;

/** Set by GraphNode's static block: see {@link nodeParts}. */
let partsOf: (node: GraphNode) => { handle: Deno.PointerObject; graph: object; kernel?: KernelNode };

/**
 * One node of a {@link Graph} built by hand, as `graph.addKernel()`, `addMemcpy()` and `addMemset()`
 * return it: name it in another node's `after`, in `graph.addDependency()`, or in
 * `exec.setKernelArgs()`.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const x = cuda.memAlloc(1024);
 * using graph = new cuda.Graph();
 * const clear = graph.addMemset(x, 0, 1024);
 * console.log(clear.kind); // "memset"
 * ```
 */
export class GraphNode {
  /** What the node does. */
  readonly kind: NodeKind;
  readonly #handle: Deno.PointerObject;
  readonly #graph: object;
  readonly #kernel: KernelNode | undefined;

  static {
    partsOf = (n) => ({ handle: n.#handle, graph: n.#graph, kernel: n.#kernel });
  }

  /** Use the `add*` methods of {@link Graph}. */
  constructor(kind: NodeKind, handle: Deno.PointerObject, graph: object, kernel?: KernelNode) {
    this.kind = kind;
    this.#handle = handle;
    this.#graph = graph;
    this.#kernel = kernel;
  }

  /** `GraphNode(kernel heat_step)`, `GraphNode(memcpy)`. */
  toString(): string {
    return `GraphNode(${this.kind}${this.#kernel === undefined ? "" : ` ${this.#kernel.name}`})`;
  }
}

/** A node's driver handle, the graph it belongs to, and (for a kernel node) its launch. */
export function nodeParts(
  node: GraphNode,
): { handle: Deno.PointerObject; graph: object; kernel?: KernelNode } {
  return partsOf(node);
}

const MAX_DYNAMIC_SHARED_SIZE_BYTES = 8; // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
const KERNEL_NODE_PARAMS_BYTES = 72; // CUDA_KERNEL_NODE_PARAMS_v2

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  const kind = typeof value === "object" ? value.constructor?.name ?? "object" : typeof value;
  return `${/^[aeiouAEIOU]/.test(kind) ? "an" : "a"} ${kind}`;
}

/** Device memory for a kernel node's pointer parameter; host arrays (`cuda.In`/`Out`) cannot be replayed. */
function resolveNodePointer(value: unknown, param: KernelParam, kernel: string): bigint {
  if (value instanceof DeviceAllocation) return value.ptr;
  if (typeof value === "bigint") return value;
  const where = `${kernel}() parameter ${param.index + 1} (${param.text} ${param.name})`;
  if (value instanceof HostArgument) {
    throw new TypeError(
      `Cannot pass a cuda.${
        { in: "In", out: "Out", inout: "InOut" }[value.direction]
      }() host array to ${where} in a graph: it is copied around one launch, and a graph replays without the host; copy it with graph.addMemcpy() from pinned memory and pass device memory`,
    );
  }
  return resolveDevice(value, where).ptr;
}

/** The module of `fn`, a kernel from `Module.getFunction()`. */
function ownerOf(fn: unknown): FunctionOwner {
  const owner = typeof fn === "function"
    ? (fn as { [functionOwner]?: FunctionOwner })[functionOwner]
    : undefined;
  if (owner === undefined) {
    throw new TypeError(
      `Cannot add a kernel node for ${describe(fn)}: pass a kernel from module.getFunction()`,
    );
  }
  return owner;
}

/**
 * A kernel node's launch: the function, its argument block (laid out from the parsed signature, as a
 * launch's is) and the `CUDA_KERNEL_NODE_PARAMS` struct that points at it.
 */
export class KernelNode {
  /** The kernel's name. */
  readonly name: string;
  /** Its module, which must stay loaded as long as a graph may run the node. */
  readonly owner: FunctionOwner;
  /** The struct to add or set the node with. */
  readonly params: Uint8Array;
  /** The arguments the node was added with, for the graph to keep alive. */
  readonly args: readonly unknown[];
  readonly #fn: KernelFunction;
  readonly #block: ArgumentBlock;

  /**
   * Reads `config` and writes `args` (checked as `fn()` checks them) into a new struct.
   *
   * @throws {TypeError} for a function not from a module, a wrong argument, or a config with a stream.
   * @throws {RangeError} for a grid, block or shared size beyond the device's limits.
   */
  constructor(fn: KernelFunction, args: readonly unknown[], config: unknown) {
    this.owner = ownerOf(fn);
    this.#fn = fn;
    this.name = fn.kernelName;
    this.owner.checkLoaded(`${this.name}() in a graph`);
    this.#block = new ArgumentBlock(this.name, fn.params, resolveNodePointer);
    const dims = new Uint32Array(6);
    const shared = this.#readConfig(config, dims);
    this.write(args, "add a kernel node for");
    this.args = [...args];
    this.params = new Uint8Array(KERNEL_NODE_PARAMS_BYTES);
    const v = new DataView(this.params.buffer);
    v.setBigUint64(0, Deno.UnsafePointer.value(fn.unsafeHandle), true); // CUfunction func
    for (let i = 0; i < 6; i++) v.setUint32(8 + 4 * i, dims[i]!, true); // gridDimX..Z, blockDimX..Z
    v.setUint32(32, shared, true); // sharedMemBytes; 4 bytes of padding follow
    // kernelParams: the block's slot addresses, fixed for its life; extra, kern and ctx stay NULL.
    v.setBigUint64(40, Deno.UnsafePointer.value(Deno.UnsafePointer.of(this.#block.addresses)), true);
  }

  /**
   * Writes `args` into the block (the struct points at it), checking their count and types.
   *
   * @throws {TypeError} for a wrong count or type, naming the parameter.
   */
  write(args: readonly unknown[], action: string): void {
    const params = this.#fn.params;
    if (!Array.isArray(args) || args.length !== params.length) {
      const got = Array.isArray(args)
        ? `${args.length} argument${args.length === 1 ? "" : "s"}`
        : describe(args);
      throw new TypeError(
        `Cannot ${action} ${this.name}(): it takes ${params.length} argument${
          params.length === 1 ? "" : "s"
        } (${params.map((p) => p.name).join(", ")}); got ${got}`,
      );
    }
    for (let i = 0; i < args.length; i++) this.#block.write(i, args[i]);
  }

  #readConfig(config: unknown, dims: Uint32Array): number {
    const name = this.name;
    if (typeof config !== "object" || config === null || !("block" in config)) {
      throw new TypeError(
        `Cannot add a kernel node for ${name}(): its config must be an object such as { block: 256, grid: 1 }, not ${
          describe(config)
        }`,
      );
    }
    const c = config as KernelNodeConfig & { stream?: unknown };
    if (c.stream !== undefined) {
      throw new TypeError(
        `Cannot add a kernel node for ${name}() with a stream in its config: a graph's nodes run on the stream the graph is launched on; leave stream out`,
      );
    }
    const device = this.owner.context.device;
    readDim3(c.grid, dims, 0, "grid", name);
    readDim3(c.block, dims, 3, "block", name);
    checkLimits(dims, device.limits, device.name, name);
    const shared = c.shared ?? 0;
    if (shared === 0) return 0;
    const out = new Int32Array(1);
    checkCuda(
      driver().cuFuncGetAttribute(out, MAX_DYNAMIC_SHARED_SIZE_BYTES, this.#fn.unsafeHandle),
      "cuFuncGetAttribute",
    );
    if (!Number.isInteger(shared) || shared < 0 || shared > out[0]!) {
      throw new RangeError(
        `Cannot add a kernel node for ${name}(): shared = ${shared} bytes must be an integer from 0 to ${
          out[0]
        } (raise the limit with setMaxDynamicSharedMemory())`,
      );
    }
    return shared;
  }
}

const MEMORY_HOST = 1; // CU_MEMORYTYPE_HOST
const MEMORY_DEVICE = 2; // CU_MEMORYTYPE_DEVICE
const MEMCPY3D_BYTES = 200; // CUDA_MEMCPY3D

/** One end of a copy: its memory type, address and size (when known). */
function copyEnd(end: CopyEnd, what: string): { type: number; address: bigint; size: number | undefined } {
  if (end instanceof PagelockedArray) {
    const array = end.array;
    if (array.byteLength === 0) {
      throw new TypeError(
        `Cannot use an empty or freed PagelockedArray as ${what}: allocate it with pagelockedEmpty()`,
      );
    }
    const address = Deno.UnsafePointer.value(Deno.UnsafePointer.of(array as Uint8Array));
    return { type: MEMORY_HOST, address, size: array.byteLength };
  }
  const d = resolveDevice(end, what);
  return { type: MEMORY_DEVICE, address: d.ptr, size: d.size };
}

/**
 * The `CUDA_MEMCPY3D` of a one-row copy of `bytes` (default: all of the smaller side) from `src` to
 * `dst`, as the runtime's `cudaGraphAddMemcpyNode1D` lays it out.
 *
 * @throws {TypeError} for an end that is neither device memory nor a PagelockedArray, or two raw
 * addresses without a byte count.
 * @throws {RangeError} for a count that does not fit either end, or 0.
 */
export function memcpyParams(dst: CopyEnd, src: CopyEnd, bytes: number | undefined): Uint8Array {
  const d = copyEnd(dst, "the destination of a memcpy node");
  const s = copyEnd(src, "the source of a memcpy node");
  const known = [d.size, s.size].filter((x) => x !== undefined);
  const n = bytes ?? (known.length > 0 ? Math.min(...known) : undefined);
  if (n === undefined) {
    throw new TypeError("Cannot add a memcpy node between raw addresses: give the byte count");
  }
  if (!Number.isSafeInteger(n) || n <= 0) {
    throw new RangeError(`Cannot add a memcpy node of ${n} bytes: give a positive integer byte count`);
  }
  for (const [end, name] of [[d, "destination"], [s, "source"]] as const) {
    if (end.size !== undefined && n > end.size) {
      throw new RangeError(
        `Cannot add a memcpy node of ${n} bytes: the ${name} has ${end.size} bytes`,
      );
    }
  }
  const p = new Uint8Array(MEMCPY3D_BYTES);
  const v = new DataView(p.buffer);
  const size = BigInt(n);
  // srcXInBytes, srcY, srcZ, srcLOD stay 0; srcMemoryType at 32 (4 bytes of padding follow).
  v.setUint32(32, s.type, true);
  v.setBigUint64(s.type === MEMORY_HOST ? 40 : 48, s.address, true); // srcHost or srcDevice
  v.setBigUint64(72, size, true); // srcPitch
  v.setBigUint64(80, 1n, true); // srcHeight
  // dstXInBytes, dstY, dstZ, dstLOD stay 0; dstMemoryType at 120.
  v.setUint32(120, d.type, true);
  v.setBigUint64(d.type === MEMORY_HOST ? 128 : 136, d.address, true); // dstHost or dstDevice
  v.setBigUint64(160, size, true); // dstPitch
  v.setBigUint64(168, 1n, true); // dstHeight
  v.setBigUint64(176, size, true); // WidthInBytes
  v.setBigUint64(184, 1n, true); // Height
  v.setBigUint64(192, 1n, true); // Depth
  return p;
}

/** The sizes a memset node sets, in bytes. */
export type MemsetElementSize = 1 | 2 | 4;

const MEMSET_NODE_PARAMS_BYTES = 40; // CUDA_MEMSET_NODE_PARAMS

/**
 * The `CUDA_MEMSET_NODE_PARAMS` setting `count` elements of `elementSize` bytes at `dst` to `value`.
 *
 * @throws {RangeError} for a value or count that does not fit, or an element size other than 1, 2, 4.
 */
export function memsetParams(
  dst: DeviceTarget,
  value: number,
  count: number,
  elementSize: MemsetElementSize,
): Uint8Array {
  if (elementSize !== 1 && elementSize !== 2 && elementSize !== 4) {
    throw new RangeError(`Cannot add a memset node of ${elementSize}-byte elements: use 1, 2 or 4`);
  }
  const max = 2 ** (8 * elementSize) - 1;
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new RangeError(`Cannot add a memset node setting ${value}: give an integer from 0 to ${max}`);
  }
  if (!Number.isSafeInteger(count) || count <= 0) {
    throw new RangeError(`Cannot add a memset node of ${count} elements: give a positive integer count`);
  }
  const d = resolveDevice(dst, "the destination of a memset node");
  if (d.size !== undefined && count * elementSize > d.size) {
    throw new RangeError(
      `Cannot add a memset node of ${count} ${elementSize}-byte elements: the destination has ${d.size} bytes`,
    );
  }
  const p = new Uint8Array(MEMSET_NODE_PARAMS_BYTES);
  const v = new DataView(p.buffer);
  v.setBigUint64(0, d.ptr, true); // dst
  v.setBigUint64(8, BigInt(count * elementSize), true); // pitch (one row)
  v.setUint32(16, value, true); // value
  v.setUint32(20, elementSize, true); // elementSize
  v.setBigUint64(24, BigInt(count), true); // width, in elements
  v.setBigUint64(32, 1n, true); // height
  return p;
}
