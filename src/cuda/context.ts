/**
 * CUDA contexts. cudeno uses each device's primary context (the one the runtime API and every
 * library share) rather than creating private ones, and keeps track of which one is current on
 * Deno's main thread so that objects of several devices can be used side by side.
 *
 * @module
 */

import { driver } from "./driver.ts";
import { checkCuda, CudaError } from "./errors.ts";
import { Device } from "./device.ts";
import { releaseDefaultStreamHolds } from "./holds.ts";
import { quietly } from "../kernel/cleanup.ts";
import { refuseWhileCapturing } from "./capturing.ts";

const primaries = new Map<number, Context>();
let current: Context | undefined;
const stack: Context[] = [];

/**
 * A device's primary context (PyCUDA's `Context`, as `Device.retain_primary_context()` returns it).
 * Get one with {@link Device.makeContext} or {@link primaryContext}.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * const ctx = new cuda.Device(0).makeContext(); // retained and current
 * ctx.synchronize();
 * ```
 */
export class Context {
  /** The device the context belongs to. */
  readonly device: Device;
  #handle: Deno.PointerObject;
  #generation = 0;
  #released = false;
  /** Whether this is `current`: kept by `#become`, so `setCurrent()` reads only this object. */
  #isCurrent = false;

  /** Use {@link primaryContext}: a device has exactly one primary context. */
  private constructor(device: Device, handle: Deno.PointerObject) {
    this.device = device;
    this.#handle = handle;
  }

  /** Retains `device`'s primary context (once per process) without making it current. */
  static primary(device: Device): Context {
    const known = primaries.get(device.ordinal);
    if (known !== undefined && !known.#released) return known;
    const out = new BigUint64Array(1);
    checkCuda(driver().cuDevicePrimaryCtxRetain(out, device.unsafeHandle), "cuDevicePrimaryCtxRetain");
    const ctx = new Context(device, Deno.UnsafePointer.create(out[0]!)!);
    primaries.set(device.ordinal, ctx);
    return ctx;
  }

  /**
   * The context current on this thread, as far as cudeno has set it; undefined when none is.
   *
   * @example
   * ```ts
   * import * as cuda from "@cudeno/cudeno/cuda";
   * console.log(cuda.Context.current()?.device.name ?? "no context yet");
   * ```
   */
  static current(): Context | undefined {
    return current;
  }

  /** **UNSAFE**: the raw `CUcontext`. */
  get unsafeHandle(): Deno.PointerObject {
    this.#check("unsafeHandle");
    return this.#handle;
  }

  /** Counts the resets of this context; objects made before a reset belong to an older generation. */
  get generation(): number {
    return this.#generation;
  }

  /** Whether {@link release} has been called. */
  get released(): boolean {
    return this.#released;
  }

  #check(what: string): void {
    if (this.#released) {
      throw new TypeError(
        `Cannot use ${what}: the context of ${this.device} was released; retain it again with makeContext()`,
      );
    }
  }

  /** Makes this context current on the calling thread. */
  setCurrent(): void {
    // A released context is never current (release() clears it), so the common case checks nothing
    // else, and reads only this object (each launch of a GPU array kernel comes here).
    if (this.#isCurrent) return;
    this.#check("setCurrent()");
    checkCuda(driver().cuCtxSetCurrent(this.#handle), "cuCtxSetCurrent");
    Context.#become(this);
  }

  /** Records `next` as the current context (the driver's current context was set to it). */
  static #become(next: Context | undefined): void {
    if (current !== undefined) current.#isCurrent = false;
    current = next;
    if (next !== undefined) next.#isCurrent = true;
  }

  /** Makes this context current, remembering the previous one for {@link Context.pop}. */
  push(): void {
    this.#check("push()");
    stack.push(current ?? this);
    this.setCurrent();
  }

  /**
   * Restores the context that was current before the last {@link push}.
   *
   * @example
   * ```ts
   * import * as cuda from "@cudeno/cudeno/cuda";
   * cuda.primaryContext(new cuda.Device(0)).push();
   * cuda.Context.pop();
   * ```
   */
  static pop(): Context | undefined {
    const previous = stack.pop();
    if (previous !== undefined && !previous.#released) previous.setCurrent();
    return current;
  }

  /** Runs `fn` with this context current, restoring the previous one afterwards. */
  run<T>(fn: () => T): T {
    if (current === this) return fn();
    const previous = current;
    this.setCurrent();
    try {
      return fn();
    } finally {
      if (previous !== undefined && !previous.#released) previous.setCurrent();
    }
  }

  /**
   * Lets kernels and copies in this context access `peer`'s memory directly (`cuCtxEnablePeerAccess`).
   * Enabling it twice is not an error.
   *
   * @throws {CudaError} when the devices cannot reach each other (see `Device.canAccessPeer`).
   */
  enablePeerAccess(peer: Context): void {
    this.run(() => {
      const code = driver().cuCtxEnablePeerAccess(peer.unsafeHandle, 0);
      if (code !== 0 && code !== 704) {
        throw new CudaError(code, "cuCtxEnablePeerAccess", ` (from ${this.device} to ${peer.device})`);
      }
    });
  }

  /** Stops direct access to `peer`'s memory. */
  disablePeerAccess(peer: Context): void {
    this.run(() => checkCuda(driver().cuCtxDisablePeerAccess(peer.unsafeHandle), "cuCtxDisablePeerAccess"));
  }

  /** Waits for all work in the context to finish (`cuCtxSynchronize`). */
  synchronize(): void {
    refuseWhileCapturing(
      "synchronize the context",
      "nothing captured has run yet; end the capture, launch the graph, then synchronize",
    );
    this.run(() => checkCuda(driver().cuCtxSynchronize(), "cuCtxSynchronize"));
    releaseDefaultStreamHolds();
  }

  /**
   * Destroys everything the context holds and starts it afresh (`cuDevicePrimaryCtxReset`).
   * Allocations, modules, streams and events made before are invalid afterwards; using them throws.
   * After a kernel fault (`CUDA_ERROR_ILLEGAL_ADDRESS` and the other sticky errors) NVIDIA's driver
   * refuses every new context in the process, as cuda.h documents ("the process must be terminated
   * and relaunched"): then this throws, and the recovery is a new process.
   *
   * @throws {CudaError} when the driver refuses to start the context again.
   */
  reset(): void {
    this.#check("reset()");
    const lib = driver();
    const dev = this.device.unsafeHandle;
    if (current === this) {
      lib.cuCtxSetCurrent(null);
      Context.#become(undefined);
    }
    checkCuda(lib.cuDevicePrimaryCtxReset_v2(dev), "cuDevicePrimaryCtxReset_v2");
    const out = new BigUint64Array(1);
    const code = lib.cuDevicePrimaryCtxRetain(out, dev);
    if (code !== 0) {
      throw new CudaError(
        code,
        "cuDevicePrimaryCtxRetain",
        ` after resetting ${this.device}: the driver refuses a fresh context in this process`,
      );
    }
    // A reset keeps cudeno's retain; the extra reference taken to learn the new handle is dropped.
    lib.cuDevicePrimaryCtxRelease_v2(dev);
    this.#handle = Deno.UnsafePointer.create(out[0]!)!;
    this.#generation++;
    this.setCurrent();
  }

  /** Releases cudeno's hold on the context. Idempotent; never throws. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    quietly(() => {
      if (current === this) {
        Context.#become(undefined);
        driver().cuCtxSetCurrent(null);
      }
      driver().cuDevicePrimaryCtxRelease_v2(this.device.unsafeHandle);
    });
    primaries.delete(this.device.ordinal);
  }

  /** Same as {@link release}. */
  [Symbol.dispose](): void {
    this.release();
  }
}

/**
 * Retains `device`'s primary context and makes it current (PyCUDA's `make_context`, but on the shared
 * primary context, so there is no context stack to unwind at exit).
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * const ctx = cuda.primaryContext(new cuda.Device(0));
 * ctx.setCurrent();
 * ```
 */
export function primaryContext(device: Device): Context {
  return Context.primary(device);
}

/**
 * The current context, or a clear error saying how to get one.
 *
 * @throws {CudaError} `CUDA_ERROR_INVALID_CONTEXT`, with a hint, when no context is current.
 */
export function requireContext(what: string): Context {
  if (current === undefined) throw new CudaError(201, what);
  return current;
}

/**
 * Makes device `ordinal`'s primary context current, retaining it first; returns it. The switch for
 * programs that drive several GPUs.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * cuda.useDevice(0);
 * const buf = cuda.memAlloc(1024); // on device 0
 * ```
 */
export function useDevice(ordinal: number): Context {
  const ctx = Context.primary(new Device(ordinal));
  ctx.setCurrent();
  return ctx;
}

/**
 * Waits for all work in the current context to finish (PyCUDA's `Context.synchronize()`).
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * cuda.synchronize();
 * ```
 */
export function synchronize(): void {
  requireContext("cuCtxSynchronize").synchronize();
}

/**
 * Resets the current device's primary context: everything allocated in it is gone, and new
 * allocations, modules and launches start from scratch. After a kernel fault (an error whose
 * `contextLost` is true) NVIDIA's driver refuses new contexts for the rest of the process, as
 * cuda.h documents; this then throws a `CudaError` saying so, and the recovery is to restart the
 * process (the device itself is fine: a new process works at once).
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * try {
 *   cuda.synchronize();
 * } catch (e) {
 *   if (e instanceof cuda.CudaError && e.contextLost) {
 *     try {
 *       cuda.resetDevice();
 *     } catch {
 *       Deno.exit(75); // let a supervisor start the process again
 *     }
 *   }
 * }
 * ```
 */
export function resetDevice(): void {
  requireContext("resetDevice()").reset();
}
