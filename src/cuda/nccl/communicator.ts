/**
 * NCCL communicators: one per GPU, made together for one process driving several GPUs
 * (`initAll`) or one per process from a shared unique id (`initRank`).
 *
 * @module
 */

import { libnccl } from "../../../ffi/nccl.ts";
import { checkNccl } from "./errors.ts";
import { Device } from "../device.ts";
import { type Context, primaryContext } from "../context.ts";
import { quietly, safeRegistry } from "../../kernel/cleanup.ts";

const comms = safeRegistry<Deno.PointerObject>((handle) => libnccl.get().ncclCommDestroy(handle));

/**
 * One rank of an NCCL communicator, bound to one GPU.
 *
 * @example
 * ```ts
 * import * as nccl from "@cudeno/cudeno/nccl";
 * const comms = nccl.initAll();
 * console.log(comms.map((c) => `${c.rank}/${c.size} on ${c.device.name}`));
 * ```
 */
export class Communicator {
  /** This rank's number, from 0. */
  readonly rank: number;
  /** How many ranks the communicator has. */
  readonly size: number;
  /** The GPU this rank runs on. */
  readonly device: Device;
  /** That GPU's primary context, made current around this rank's calls. */
  readonly context: Context;
  readonly #handle: Deno.PointerObject;
  #destroyed = false;

  /** Wraps a communicator made by {@link initAll} or {@link initRank}. */
  constructor(handle: Deno.PointerObject) {
    const lib = libnccl.get();
    const out = new Int32Array(1);
    checkNccl(lib.ncclCommUserRank(handle, out), "ncclCommUserRank", handle);
    this.rank = out[0]!;
    checkNccl(lib.ncclCommCount(handle, out), "ncclCommCount", handle);
    this.size = out[0]!;
    checkNccl(lib.ncclCommCuDevice(handle, out), "ncclCommCuDevice", handle);
    this.device = new Device(out[0]!);
    this.context = primaryContext(this.device);
    this.#handle = handle;
    comms.register(this, handle, this);
  }

  /**
   * **UNSAFE**: the raw `ncclComm_t`.
   *
   * @throws {TypeError} when the communicator was destroyed.
   */
  get unsafeHandle(): Deno.PointerObject {
    if (this.#destroyed) {
      throw new TypeError(`Cannot use NCCL rank ${this.rank}: its communicator was destroyed`);
    }
    return this.#handle;
  }

  /** Destroys this rank's communicator. Idempotent; never throws. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    comms.unregister(this);
    quietly(() => this.context.run(() => libnccl.get().ncclCommDestroy(this.#handle)));
  }

  /** Same as {@link destroy}. */
  [Symbol.dispose](): void {
    this.destroy();
  }
}

/**
 * One communicator rank per device, for one process driving them all (`ncclCommInitAll`). Default:
 * every CUDA device present.
 *
 * @throws {NcclError} when NCCL cannot set the ranks up.
 * @example
 * ```ts
 * import * as nccl from "@cudeno/cudeno/nccl";
 * const comms = nccl.initAll([0]);
 * ```
 */
export function initAll(devices?: readonly (number | Device)[]): Communicator[] {
  const list = (devices ?? Array.from({ length: Device.count() }, (_, i) => i)).map((
    d,
  ) => (d instanceof Device ? d.ordinal : d));
  for (const d of list) new Device(d); // checks each ordinal, with the device count in the message
  for (const d of list) primaryContext(new Device(d)).setCurrent();
  const out = new BigUint64Array(list.length);
  checkNccl(libnccl.get().ncclCommInitAll(out, list.length, new Int32Array(list)), "ncclCommInitAll");
  return [...out].map((h) => new Communicator(Deno.UnsafePointer.create(h)!));
}

/**
 * A fresh `ncclUniqueId` (128 bytes) for {@link initRank}: make it in one process and send it to the others.
 *
 * @example
 * ```ts
 * import * as nccl from "@cudeno/cudeno/nccl";
 * const id = nccl.uniqueId();
 * ```
 */
export function uniqueId(): Uint8Array {
  const id = new Uint8Array(128);
  checkNccl(libnccl.get().ncclGetUniqueId(id), "ncclGetUniqueId");
  return id;
}

/**
 * This process's rank of an `nranks`-rank communicator identified by `id`, on the current device.
 *
 * @throws {RangeError} for an id that is not 128 bytes or a rank outside `0..nranks-1`.
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import * as nccl from "@cudeno/cudeno/nccl";
 * cuda.useDevice(0);
 * const comm = nccl.initRank(1, nccl.uniqueId(), 0);
 * ```
 */
export function initRank(nranks: number, id: Uint8Array, rank: number): Communicator {
  if (id.byteLength !== 128) {
    throw new RangeError(
      `Cannot join an NCCL communicator with a ${id.byteLength}-byte id: ids are 128 bytes (uniqueId())`,
    );
  }
  if (!Number.isInteger(rank) || rank < 0 || rank >= nranks) {
    throw new RangeError(`Cannot be rank ${rank} of ${nranks}: give a rank from 0 to ${nranks - 1}`);
  }
  const out = new BigUint64Array(1);
  checkNccl(libnccl.get().ncclCommInitRank(out, nranks, id.slice(), rank), "ncclCommInitRank");
  return new Communicator(Deno.UnsafePointer.create(out[0]!)!);
}

/**
 * NCCL's version as `[major, minor, patch]`.
 *
 * @example
 * ```ts
 * import * as nccl from "@cudeno/cudeno/nccl";
 * console.log(nccl.version()); // [2, 28, 3]
 * ```
 */
export function version(): [number, number, number] {
  const out = new Int32Array(1);
  checkNccl(libnccl.get().ncclGetVersion(out), "ncclGetVersion");
  const v = out[0]!;
  return v >= 10000
    ? [Math.floor(v / 10000), Math.floor(v / 100) % 100, v % 100]
    : [Math.floor(v / 1000), Math.floor(v / 100) % 10, v % 100];
}
