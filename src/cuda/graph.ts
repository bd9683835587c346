/**
 * CUDA graphs: work recorded once, from a stream capture (`cuda.capture()`) or node by node (kernel
 * launches with typed arguments, copies, sets, and the dependencies between them, as cuda.core's
 * `GraphBuilder` allows), then instantiated into a {@link GraphExec} that replays it for a fraction of
 * the launches' cost.
 *
 * @module
 */

import { driver } from "./driver.ts";
import { checkCuda } from "./errors.ts";
import { type Context, requireContext } from "./context.ts";
import { Owned, ownership } from "./owned.ts";
import type { DeviceTarget } from "./memory.ts";
import type { KernelFunction } from "./function.ts";
import type { CapturedKernel, CapturedMemory, CaptureRecord } from "./capturing.ts";
import { GraphExec } from "./graph_exec.ts";
import {
  type CopyEnd,
  GraphNode,
  KernelNode,
  type KernelNodeConfig,
  memcpyParams,
  type MemsetElementSize,
  memsetParams,
  type NodeOptions,
  nodeParts,
} from "./graph_node.ts";

const graphs = ownership<Deno.PointerObject>((handle) => driver().cuGraphDestroy(handle));
/** `CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH` (cuda.h's `CUgraphInstantiate_flags`). */
const AUTO_FREE_ON_LAUNCH = 1n;

/** Options of a memset node. */
export interface MemsetNodeOptions extends NodeOptions {
  /** Bytes per element: 1, 2 or 4 (`memsetD8`, `D16`, `D32`). Default 1. */
  readonly elementSize?: MemsetElementSize;
}

/** What a graph's nodes use and a replay needs: modules that must stay loaded, memory kept alive. */
export interface GraphUses {
  /** Each module with the name of one of its kernels, for messages. */
  readonly kernels: ReadonlyMap<CapturedKernel, string>;
  /** Device memory, pinned arrays and arguments the nodes point at. */
  readonly keep: ReadonlySet<unknown>;
  /** The memory the capture the graph came from took, if it came from one: a launch makes it real. */
  readonly memory?: CapturedMemory;
}

/** Set by Graph's static block: see {@link adoptGraph}. */
let adopt: (handle: Deno.PointerObject, ctx: Context, record: CaptureRecord | undefined) => Graph;
/** Set by Graph's static block: see {@link graphInternals}. */
let internals: (graph: Graph, action: string) => { handle: Deno.PointerObject; uses: GraphUses };

/**
 * A CUDA graph (`CUgraph`): build it node by node, or get it from `cuda.capture()` or
 * `stream.endCapture()`; then {@link instantiate} it to launch it.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const mod = new cuda.SourceModule("__global__ void scale(float *x, float a, int n) { int i = threadIdx.x; if (i < n) x[i] *= a; }");
 * const scale = mod.getFunction("scale");
 * const x = cuda.memAlloc(256 * 4);
 * using graph = new cuda.Graph();
 * const clear = graph.addMemset(x, 0x3f800000, 256, { elementSize: 4 }); // 1.0f
 * graph.addKernel(scale, [x, 2, 256], { block: 256, after: [clear] });
 * using exec = graph.instantiate();
 * using stream = new cuda.Stream();
 * exec.launch(stream);
 * await stream.completed();
 * ```
 */
export class Graph {
  readonly #held: Owned<Deno.PointerObject>;
  readonly #kernels = new Map<CapturedKernel, string>();
  readonly #keep = new Set<unknown>();
  #memory: CapturedMemory | undefined;
  #freed = false;
  static #adopting: { handle: Deno.PointerObject; ctx: Context } | undefined;

  static {
    adopt = (handle, ctx, record) => {
      Graph.#adopting = { handle, ctx };
      try {
        const graph = new Graph();
        for (const [module, name] of record?.kernels ?? []) graph.#kernels.set(module, name);
        for (const value of record?.keep ?? []) graph.#keep.add(value);
        graph.#memory = record?.memory;
        return graph;
      } finally {
        Graph.#adopting = undefined;
      }
    };
    internals = (graph, action) => ({
      handle: graph.#live(action),
      uses: { kernels: graph.#kernels, keep: graph.#keep, memory: graph.#memory },
    });
  }

  /**
   * Creates an empty graph in the current context (`cuGraphCreate`).
   *
   * @throws {CudaError} `CUDA_ERROR_INVALID_CONTEXT` when no context is current.
   */
  constructor() {
    const adopting = Graph.#adopting;
    Graph.#adopting = undefined;
    if (adopting !== undefined) {
      this.#held = new Owned(adopting.handle, adopting.ctx);
    } else {
      const ctx = requireContext("cuGraphCreate");
      const out = new BigUint64Array(1);
      checkCuda(driver().cuGraphCreate(out, 0), "cuGraphCreate");
      this.#held = new Owned(Deno.UnsafePointer.create(out[0]!)!, ctx);
    }
    graphs.registry.register(this, this.#held, this);
  }

  #live(action: string): Deno.PointerObject {
    if (this.#freed || this.#held.stale) {
      throw new TypeError(
        `Cannot ${action} a Graph that ${
          this.#freed ? "was freed" : "belonged to a context that was reset"
        }: build or capture it again`,
      );
    }
    return this.#held.handle;
  }

  /** The context the graph belongs to. */
  get context(): Context {
    return this.#held.ctx;
  }

  /** How many nodes the graph has (`cuGraphGetNodes`). */
  get nodeCount(): number {
    const count = new BigUint64Array(1);
    checkCuda(driver().cuGraphGetNodes(this.#live("count the nodes of"), null, count), "cuGraphGetNodes");
    return Number(count[0]!);
  }

  /** The handles of `after`, checked to be nodes of this graph, without repeats. */
  #dependencies(after: readonly GraphNode[] | undefined, what: string): BigUint64Array {
    if (after === undefined) return new BigUint64Array(0);
    if (!Array.isArray(after)) {
      throw new TypeError(`Cannot add ${what}: after must be an array of this graph's nodes`);
    }
    const handles = new Set<bigint>();
    for (const node of after) {
      if (!(node instanceof GraphNode) || nodeParts(node).graph !== this) {
        throw new TypeError(
          `Cannot add ${what} after ${
            node instanceof GraphNode ? `${node}, a node of another graph` : String(node)
          }: after takes nodes this graph's add*() methods returned`,
        );
      }
      handles.add(Deno.UnsafePointer.value(nodeParts(node).handle));
    }
    return new BigUint64Array([...handles]);
  }

  /**
   * Adds a launch of `fn` with `args` (checked and packed by the kernel's declared types, as `fn()`
   * packs them), run with `config`'s grid, block and shared memory, after the nodes in `config.after`.
   * The node keeps `fn`'s module and the arguments alive; change them in an instantiated graph with
   * `exec.setKernelArgs()`.
   *
   * @throws {TypeError} for a wrong argument (named), a host array (`cuda.In`), or a stream in `config`.
   * @throws {RangeError} for a grid, block or shared size beyond the device's limits.
   * @example
   * ```ts
   * import * as cuda from "@cudeno/cudeno/cuda";
   * import "@cudeno/cudeno/autoinit";
   * const fill = new cuda.SourceModule("__global__ void fill(float *x, float v) { x[threadIdx.x] = v; }").getFunction("fill");
   * const x = cuda.memAlloc(32 * 4);
   * using graph = new cuda.Graph();
   * const node = graph.addKernel(fill, [x, 1.5], { block: 32 });
   * ```
   */
  addKernel(fn: KernelFunction, args: readonly unknown[], config: KernelNodeConfig): GraphNode {
    const handle = this.#live("add a node to");
    const kernel = new KernelNode(fn, args, config);
    const deps = this.#dependencies(config.after, `a kernel node for ${kernel.name}()`);
    const out = new BigUint64Array(1);
    checkCuda(
      driver().cuGraphAddKernelNode_v2(out, handle, deps, BigInt(deps.length), kernel.params),
      "cuGraphAddKernelNode_v2",
    );
    this.#kernels.set(kernel.owner, kernel.name);
    for (const a of kernel.args) if (typeof a === "object" && a !== null) this.#keep.add(a);
    return new GraphNode("kernel", Deno.UnsafePointer.create(out[0]!)!, this, kernel);
  }

  /**
   * Adds a copy of `bytes` (default: all of the smaller side) from `src` to `dst`, each device memory
   * or a page-locked host array ({@link pagelockedEmpty}; the node keeps it alive).
   *
   * @throws {RangeError} when `bytes` does not fit either side.
   * @example
   * ```ts
   * import * as cuda from "@cudeno/cudeno/cuda";
   * import "@cudeno/cudeno/autoinit";
   * const host = cuda.pagelockedEmpty(256, "float32");
   * const dev = cuda.memAlloc(256 * 4);
   * using graph = new cuda.Graph();
   * graph.addMemcpy(dev, host);
   * ```
   */
  addMemcpy(dst: CopyEnd, src: CopyEnd, bytes?: number, options: NodeOptions = {}): GraphNode {
    const handle = this.#live("add a node to");
    const params = memcpyParams(dst, src, bytes);
    const deps = this.#dependencies(options.after, "a memcpy node");
    const out = new BigUint64Array(1);
    checkCuda(
      driver().cuGraphAddMemcpyNode(
        out,
        handle,
        deps,
        BigInt(deps.length),
        params,
        this.#held.ctx.unsafeHandle,
      ),
      "cuGraphAddMemcpyNode",
    );
    for (const end of [dst, src]) if (typeof end === "object" && end !== null) this.#keep.add(end);
    return new GraphNode("memcpy", Deno.UnsafePointer.create(out[0]!)!, this);
  }

  /**
   * Adds a set of `count` elements of `options.elementSize` bytes (default 1) at `dst` to `value`.
   *
   * @throws {RangeError} for a value or count that does not fit.
   * @example
   * ```ts
   * import * as cuda from "@cudeno/cudeno/cuda";
   * import "@cudeno/cudeno/autoinit";
   * const x = cuda.memAlloc(1024);
   * using graph = new cuda.Graph();
   * graph.addMemset(x, 0, 256, { elementSize: 4 });
   * ```
   */
  addMemset(dst: DeviceTarget, value: number, count: number, options: MemsetNodeOptions = {}): GraphNode {
    const handle = this.#live("add a node to");
    const params = memsetParams(dst, value, count, options.elementSize ?? 1);
    const deps = this.#dependencies(options.after, "a memset node");
    const out = new BigUint64Array(1);
    checkCuda(
      driver().cuGraphAddMemsetNode(
        out,
        handle,
        deps,
        BigInt(deps.length),
        params,
        this.#held.ctx.unsafeHandle,
      ),
      "cuGraphAddMemsetNode",
    );
    if (typeof dst === "object" && dst !== null) this.#keep.add(dst);
    return new GraphNode("memset", Deno.UnsafePointer.create(out[0]!)!, this);
  }

  /**
   * Makes `to` wait for `from` (`cuGraphAddDependencies`), both nodes of this graph.
   *
   * @throws {TypeError} for a node of another graph.
   * @example
   * ```ts
   * import * as cuda from "@cudeno/cudeno/cuda";
   * import "@cudeno/cudeno/autoinit";
   * const a = cuda.memAlloc(64), b = cuda.memAlloc(64);
   * using graph = new cuda.Graph();
   * const first = graph.addMemset(a, 1, 64);
   * const second = graph.addMemcpy(b, a);
   * graph.addDependency(first, second);
   * ```
   */
  addDependency(from: GraphNode, to: GraphNode): void {
    const handle = this.#live("add a dependency to");
    const [f] = this.#dependencies([from], "a dependency");
    const [t] = this.#dependencies([to], "a dependency");
    checkCuda(
      driver().cuGraphAddDependencies(handle, new BigUint64Array([f!]), new BigUint64Array([t!]), 1n),
      "cuGraphAddDependencies",
    );
  }

  /**
   * Makes the graph launchable (`cuGraphInstantiateWithFlags`). The graph may be changed or freed
   * afterwards; the {@link GraphExec} runs what it held when instantiated. Device memory a capture
   * took (memory nodes) and did not give back in the graph is freed before each relaunch
   * (`CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH`, as PyTorch instantiates): it keeps its
   * address, so arrays made in the capture hold the latest launch's values.
   *
   * @throws {TypeError} when a kernel's module was unloaded.
   * @example
   * ```ts
   * import * as cuda from "@cudeno/cudeno/cuda";
   * import "@cudeno/cudeno/autoinit";
   * using graph = new cuda.Graph();
   * using exec = graph.instantiate();
   * ```
   */
  instantiate(): GraphExec {
    const handle = this.#live("instantiate");
    for (const [module, name] of this.#kernels) module.checkLoaded(`${name}() in a graph`);
    const out = new BigUint64Array(1);
    checkCuda(
      driver().cuGraphInstantiateWithFlags(out, handle, AUTO_FREE_ON_LAUNCH),
      "cuGraphInstantiateWithFlags",
    );
    return new GraphExec(Deno.UnsafePointer.create(out[0]!)!, this, {
      kernels: new Map(this.#kernels),
      keep: new Set(this.#keep),
      memory: this.#memory,
    });
  }

  /** Destroys the graph (instantiated ones keep running). Idempotent; never throws. */
  free(): void {
    if (this.#freed) return;
    this.#freed = true;
    graphs.registry.unregister(this);
    graphs.release(this.#held);
  }

  /** Same as {@link free}. */
  [Symbol.dispose](): void {
    this.free();
  }
}

/** Wraps a graph the driver made (a capture's), owned by `ctx`, with what the capture's launches used. */
export function adoptGraph(
  handle: Deno.PointerObject,
  ctx: Context,
  record: CaptureRecord | undefined,
): Graph {
  return adopt(handle, ctx, record);
}

/**
 * The graph's handle (throwing, with `action` in the message, when it was freed) and what its nodes use.
 */
export function graphInternals(
  graph: Graph,
  action: string,
): { handle: Deno.PointerObject; uses: GraphUses } {
  return internals(graph, action);
}
