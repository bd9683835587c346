/**
 * NCCL collectives on device buffers and GPU arrays: all-reduce, broadcast, reduce-scatter and
 * all-gather, queued on a stream, and group calls for driving several GPUs from one thread.
 *
 * @module
 */

import { libnccl } from "../../../ffi/nccl.ts";
import { checkNccl } from "./errors.ts";
import type { Communicator } from "./communicator.ts";
import { resolveDevice } from "../memory.ts";
import type { Stream } from "../stream.ts";
import { type DType, DTYPES, isDType } from "../../kernel/dtype.ts";

const DATATYPES: Partial<Record<DType, number>> = {
  int8: 0,
  uint8: 1,
  int32: 2,
  uint32: 3,
  int64: 4,
  uint64: 5,
  float16: 6,
  float32: 7,
  float64: 8,
  bfloat16: 9,
};

/** A reduction NCCL applies across ranks. */
export type ReduceOp = "sum" | "prod" | "max" | "min" | "avg";

const OPS: Record<ReduceOp, number> = { sum: 0, prod: 1, max: 2, min: 3, avg: 4 };

/** Options of every collective. */
export interface CollectiveOptions {
  /** The element type; default: the buffer's own dtype (GPU arrays have one; raw buffers need this). */
  readonly dtype?: DType;
  /** Elements per rank; default: what the buffers hold. */
  readonly count?: number;
  /** The stream to queue on (of the rank's device). Default: the legacy default stream. */
  readonly stream?: Stream;
}

/** Options of reducing collectives. */
export interface ReduceOptions extends CollectiveOptions {
  /** How values from the ranks combine. Default `"sum"`. */
  readonly op?: ReduceOp;
}

interface Resolved {
  readonly send: bigint;
  readonly recv: bigint;
  readonly count: number;
  readonly type: number;
  readonly op: number;
  readonly stream: Deno.PointerValue;
}

function dtypeOf(buf: unknown, options: CollectiveOptions, what: string): DType {
  const own = typeof buf === "object" && buf !== null && "dtype" in buf
    ? (buf as { dtype: unknown }).dtype
    : undefined;
  const dtype = options.dtype ?? own;
  if (!isDType(dtype)) throw new TypeError(`Cannot ${what}: pass { dtype } for a raw device buffer`);
  if (DATATYPES[dtype] === undefined) {
    throw new TypeError(`Cannot ${what} ${dtype} values: NCCL has no ${dtype} type`);
  }
  return dtype;
}

/** Reads buffers and options; `sendPerRecv` is how many send elements one receive element corresponds to (or the reverse). */
function resolve(
  send: unknown,
  recv: unknown,
  options: ReduceOptions,
  what: string,
  sendScale: number,
  recvScale: number,
): Resolved {
  const dtype = dtypeOf(recv, options, what);
  const size = DTYPES[dtype].size;
  const s = resolveDevice(send, `the send buffer of ${what}`);
  const r = resolveDevice(recv, `the receive buffer of ${what}`);
  const fits = [
    s.size === undefined ? Infinity : s.size / size / sendScale,
    r.size === undefined ? Infinity : r.size / size / recvScale,
  ];
  const count = options.count ?? Math.floor(Math.min(...fits));
  if (!Number.isFinite(count)) throw new TypeError(`Cannot ${what} between raw addresses: pass { count }`);
  if (!Number.isSafeInteger(count) || count < 0 || count > Math.min(...fits)) {
    throw new RangeError(
      `Cannot ${what} ${count} elements: the buffers hold ${Math.floor(Math.min(...fits))} per rank`,
    );
  }
  const op = OPS[options.op ?? "sum"];
  if (op === undefined) {
    throw new TypeError(`Cannot ${what} with op "${options.op}": use ${Object.keys(OPS).join(", ")}`);
  }
  return {
    send: s.ptr,
    recv: r.ptr,
    count,
    type: DATATYPES[dtype]!,
    op,
    stream: options.stream?.unsafeHandle ?? null,
  };
}

/**
 * Sums (or combines by `op`) `send` across all ranks into every rank's `recv` (`ncclAllReduce`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nccl from "@cudeno/cudeno/nccl";
 * const [comm] = nccl.initAll([0]);
 * const x = ga.ones(1024);
 * nccl.allReduce(comm, x, x);
 * ```
 */
export function allReduce(
  comm: Communicator,
  send: unknown,
  recv: unknown,
  options: ReduceOptions = {},
): void {
  const r = resolve(send, recv, options, "allReduce", 1, 1);
  const handle = comm.unsafeHandle;
  comm.context.run(() =>
    checkNccl(
      libnccl.get().ncclAllReduce(r.send, r.recv, BigInt(r.count), r.type, r.op, handle, r.stream),
      "ncclAllReduce",
      handle,
    )
  );
}

/**
 * Copies rank `root`'s `send` into every rank's `recv` (`ncclBroadcast`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nccl from "@cudeno/cudeno/nccl";
 * const [comm] = nccl.initAll([0]);
 * const x = ga.arange(16);
 * nccl.broadcast(comm, x, x, { root: 0 });
 * ```
 */
export function broadcast(
  comm: Communicator,
  send: unknown,
  recv: unknown,
  options: CollectiveOptions & { root?: number } = {},
): void {
  const root = options.root ?? 0;
  if (!Number.isInteger(root) || root < 0 || root >= comm.size) {
    throw new RangeError(
      `Cannot broadcast from rank ${root}: the communicator has ranks 0 to ${comm.size - 1}`,
    );
  }
  const r = resolve(send, recv, options, "broadcast", 1, 1);
  const handle = comm.unsafeHandle;
  comm.context.run(() =>
    checkNccl(
      libnccl.get().ncclBroadcast(r.send, r.recv, BigInt(r.count), r.type, root, handle, r.stream),
      "ncclBroadcast",
      handle,
    )
  );
}

/**
 * Reduces `send` (`count × size` elements) across ranks and leaves block `rank` of the result in each
 * rank's `recv` (`count` elements) (`ncclReduceScatter`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nccl from "@cudeno/cudeno/nccl";
 * const [comm] = nccl.initAll([0]);
 * const x = ga.ones(8), y = ga.zeros(8);
 * nccl.reduceScatter(comm, x, y);
 * ```
 */
export function reduceScatter(
  comm: Communicator,
  send: unknown,
  recv: unknown,
  options: ReduceOptions = {},
): void {
  const r = resolve(send, recv, options, "reduceScatter", comm.size, 1);
  const handle = comm.unsafeHandle;
  comm.context.run(() =>
    checkNccl(
      libnccl.get().ncclReduceScatter(r.send, r.recv, BigInt(r.count), r.type, r.op, handle, r.stream),
      "ncclReduceScatter",
      handle,
    )
  );
}

/**
 * Gathers every rank's `send` (`count` elements) into every rank's `recv` (`count × size`, in rank
 * order) (`ncclAllGather`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nccl from "@cudeno/cudeno/nccl";
 * const [comm] = nccl.initAll([0]);
 * const x = ga.ones(8), all = ga.zeros(8);
 * nccl.allGather(comm, x, all);
 * ```
 */
export function allGather(
  comm: Communicator,
  send: unknown,
  recv: unknown,
  options: CollectiveOptions = {},
): void {
  const r = resolve(send, recv, options, "allGather", 1, comm.size);
  const handle = comm.unsafeHandle;
  comm.context.run(() =>
    checkNccl(
      libnccl.get().ncclAllGather(r.send, r.recv, BigInt(r.count), r.type, handle, r.stream),
      "ncclAllGather",
      handle,
    )
  );
}

/**
 * Runs `fn` between `ncclGroupStart` and `ncclGroupEnd`: how one thread issues a collective on each
 * of several GPUs without deadlocking.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nccl from "@cudeno/cudeno/nccl";
 * const comms = nccl.initAll();
 * const parts = comms.map(() => ga.ones(1024));
 * nccl.group(() => comms.forEach((c, i) => nccl.allReduce(c, parts[i], parts[i])));
 * ```
 */
export function group<T>(fn: () => T): T {
  const lib = libnccl.get();
  checkNccl(lib.ncclGroupStart(), "ncclGroupStart");
  try {
    return fn();
  } finally {
    checkNccl(lib.ncclGroupEnd(), "ncclGroupEnd");
  }
}
