/**
 * Instantiated CUDA graphs (`CUgraphExec`): launched on a stream as one unit, updated from a graph of
 * the same shape, and given new kernel arguments without instantiating again.
 *
 * @module
 */

import { driver } from "./driver.ts";
import { checkCuda, CudaError } from "./errors.ts";
import { Owned, ownership } from "./owned.ts";
import type { Stream } from "./stream.ts";
import type { CapturedKernel, CapturedMemory } from "./capturing.ts";
import { type Graph, graphInternals, type GraphUses } from "./graph.ts";
import { GraphNode, nodeParts } from "./graph_node.ts";

const execs = ownership<Deno.PointerObject>((handle) => driver().cuGraphExecDestroy(handle));

const CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE = 910;
const UPDATE_RESULT_INFO_BYTES = 24; // CUgraphExecUpdateResultInfo: result, errorNode, errorFromNode

/** Why `cuGraphExecUpdate` refused a graph, by `CUgraphExecUpdateResult`. */
const UPDATE_FAILURES: Record<number, string> = {
  1: "the driver refused it for a reason it reports only as its return value",
  2: "its topology differs from the instantiated graph's (a node or a dependency was added, removed or moved)",
  3: "a node's type changed",
  4: "a kernel node's function changed",
  5: "a node's parameters changed in a way an update cannot apply",
  6: "a node cannot be updated",
  7: "a kernel node's function changed in a way an update cannot apply",
  8: "a node's attributes changed in a way an update cannot apply",
};

/**
 * A graph made launchable (`Graph.instantiate()`): launch it on a stream as often as needed; each
 * launch runs every node, for far less than launching each kernel.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const mod = new cuda.SourceModule("__global__ void inc(int *c) { atomicAdd(c, 1); }");
 * const inc = mod.getFunction("inc");
 * const counter = cuda.memAlloc(4);
 * cuda.memsetD32(counter, 0, 1);
 * using stream = new cuda.Stream();
 * using graph = cuda.capture(stream, () => {
 *   for (let i = 0; i < 100; i++) inc(counter, { block: 1, stream });
 * });
 * using exec = graph.instantiate();
 * for (let i = 0; i < 10; i++) exec.launch(stream); // 1,000 kernels
 * await stream.completed();
 * ```
 */
export class GraphExec {
  readonly #held: Owned<Deno.PointerObject>;
  readonly #graph: Graph;
  /** The modules of the kernels the graph runs, and a kernel name of each: checked before each launch. */
  #modules: CapturedKernel[] = [];
  #names: string[] = [];
  /** What the nodes point at, kept alive as long as the graph may run. */
  readonly #keep = new Set<unknown>();
  /** The arguments each kernel node was last given by {@link setKernelArgs}, kept alive likewise. */
  readonly #nodeArgs = new Map<GraphNode, readonly unknown[]>();
  /** The memory the capture the graph came from took: launched, it becomes real. */
  readonly #memory: CapturedMemory | undefined;
  #freed = false;

  /** Use {@link Graph.instantiate}. */
  constructor(handle: Deno.PointerObject, graph: Graph, uses: GraphUses) {
    this.#held = new Owned(handle, graph.context);
    this.#graph = graph;
    this.#memory = uses.memory;
    this.#adopt(uses);
    execs.registry.register(this, this.#held, this);
  }

  #adopt(uses: GraphUses): void {
    for (const [module, name] of uses.kernels) {
      if (!this.#modules.includes(module)) {
        this.#modules.push(module);
        this.#names.push(name);
      }
    }
    for (const value of uses.keep) this.#keep.add(value);
  }

  #live(action: string): Deno.PointerObject {
    if (this.#freed || this.#held.stale) {
      throw new TypeError(
        `Cannot ${action} a GraphExec that ${
          this.#freed ? "was freed" : "belonged to a context that was reset"
        }: instantiate the graph again`,
      );
    }
    return this.#held.handle;
  }

  #checkModules(): void {
    const modules = this.#modules;
    for (let i = 0; i < modules.length; i++) modules[i]!.checkLoaded(`${this.#names[i]}() in a graph`);
  }

  /**
   * Queues one run of the whole graph on `stream` (default: the legacy default stream), after the
   * work queued there before (`cuGraphLaunch`).
   *
   * @throws {TypeError} when the graph was freed, or a kernel's module was unloaded since.
   * @example
   * ```ts
   * import * as cuda from "@cudeno/cudeno/cuda";
   * import "@cudeno/cudeno/autoinit";
   * using stream = new cuda.Stream();
   * using exec = new cuda.Graph().instantiate();
   * exec.launch(stream);
   * ```
   */
  launch(stream?: Stream): void {
    const handle = this.#live("launch");
    this.#checkModules();
    const code = driver().cuGraphLaunch(handle, stream === undefined ? null : stream.unsafeHandle);
    if (code !== 0) throw new CudaError(code, "cuGraphLaunch");
    if (this.#memory !== undefined) this.#memory.launched = true;
  }

  /**
   * Prepares the graph on the device ahead of its first launch, queued on `stream` (`cuGraphUpload`),
   * so that launch costs what later ones do.
   *
   * @example
   * ```ts
   * import * as cuda from "@cudeno/cudeno/cuda";
   * import "@cudeno/cudeno/autoinit";
   * using stream = new cuda.Stream();
   * using exec = new cuda.Graph().instantiate();
   * exec.upload(stream);
   * ```
   */
  upload(stream?: Stream): void {
    const handle = this.#live("upload");
    checkCuda(
      driver().cuGraphUpload(handle, stream === undefined ? null : stream.unsafeHandle),
      "cuGraphUpload",
    );
  }

  /**
   * Takes the nodes' parameters (kernel arguments and launch sizes, copy and set addresses) from
   * `graph`, which must have the instantiated graph's shape: same nodes, same dependencies
   * (`cuGraphExecUpdate`). Cheaper than instantiating `graph`.
   *
   * @throws {CudaError} `CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE`, saying what differs (the topology, a
   * node's type, ...); the GraphExec is unchanged and still usable.
   * @example
   * ```ts
   * import * as cuda from "@cudeno/cudeno/cuda";
   * import "@cudeno/cudeno/autoinit";
   * using exec = new cuda.Graph().instantiate();
   * using next = new cuda.Graph();
   * exec.update(next);
   * ```
   */
  update(graph: Graph): void {
    const handle = this.#live("update");
    const { handle: source, uses } = graphInternals(graph, "update a GraphExec from");
    for (const [module, name] of uses.kernels) module.checkLoaded(`${name}() in a graph`);
    const info = new Uint8Array(UPDATE_RESULT_INFO_BYTES);
    const code = driver().cuGraphExecUpdate_v2(handle, source, info);
    if (code === CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE) {
      const result = new DataView(info.buffer).getInt32(0, true);
      throw new CudaError(
        code,
        "cuGraphExecUpdate_v2",
        `: the graph cannot update this GraphExec: ${
          UPDATE_FAILURES[result] ?? `CUgraphExecUpdateResult ${result}`
        }; instantiate it instead`,
      );
    }
    checkCuda(code, "cuGraphExecUpdate_v2");
    this.#adopt(uses);
  }

  /**
   * Gives kernel node `node` (from the graph this was instantiated from) new arguments, checked and
   * packed as `fn()` packs them, for the launches from now on (`cuGraphExecKernelNodeSetParams`):
   * new scalars and new pointers without instantiating again. The launch sizes stay.
   *
   * @throws {TypeError} for a node that is not a kernel node of that graph, a graph that was freed,
   * or a wrong argument (named).
   * @example
   * ```ts
   * import * as cuda from "@cudeno/cudeno/cuda";
   * import "@cudeno/cudeno/autoinit";
   * const fill = new cuda.SourceModule("__global__ void fill(float *x, float v) { x[threadIdx.x] = v; }").getFunction("fill");
   * const x = cuda.memAlloc(32 * 4), y = cuda.memAlloc(32 * 4);
   * using graph = new cuda.Graph();
   * const node = graph.addKernel(fill, [x, 1], { block: 32 });
   * using exec = graph.instantiate();
   * exec.setKernelArgs(node, y, 2); // later launches fill y with 2
   * ```
   */
  setKernelArgs(node: GraphNode, ...args: unknown[]): void {
    const handle = this.#live("set kernel arguments in");
    if (!(node instanceof GraphNode)) {
      throw new TypeError(
        `Cannot set the kernel arguments of ${String(node)}: pass a node graph.addKernel() returned`,
      );
    }
    const { handle: nodeHandle, graph, kernel } = nodeParts(node);
    if (graph !== this.#graph) {
      throw new TypeError(
        `Cannot set the kernel arguments of ${node}: it is not a node of the graph this GraphExec was instantiated from`,
      );
    }
    if (kernel === undefined) {
      throw new TypeError(`Cannot set the kernel arguments of ${node}: it is not a kernel node`);
    }
    graphInternals(this.#graph, "set kernel arguments of a node of");
    kernel.owner.checkLoaded(`${kernel.name}() in a graph`);
    kernel.write(args, "set the arguments of");
    checkCuda(
      driver().cuGraphExecKernelNodeSetParams_v2(handle, nodeHandle, kernel.params),
      "cuGraphExecKernelNodeSetParams_v2",
    );
    this.#nodeArgs.set(node, args);
  }

  /** Destroys the instantiated graph (a run in flight finishes first). Idempotent; never throws. */
  free(): void {
    if (this.#freed) return;
    this.#freed = true;
    execs.registry.unregister(this);
    execs.release(this.#held);
  }

  /** Same as {@link free}. */
  [Symbol.dispose](): void {
    this.free();
  }
}
