/**
 * Driver objects owned by a context: the handle, the context, and the context's generation when the
 * object was made, so that an object outliving a reset of its context is refused instead of used.
 *
 * @module
 */

import type { Context } from "./context.ts";
import { quietly, safeRegistry } from "../kernel/cleanup.ts";
import { releaseWhenNotCapturing } from "./capturing.ts";

/** A driver handle and the context (and generation of it) it belongs to. */
export class Owned<H> {
  /** The driver's handle (or device address). */
  readonly handle: H;
  /** The context that holds it. */
  readonly ctx: Context;
  /** The context's generation when it was made. */
  readonly generation: number;

  /** Records `handle` as owned by `ctx` now. */
  constructor(handle: H, ctx: Context) {
    this.handle = handle;
    this.ctx = ctx;
    this.generation = ctx.generation;
  }

  /** Whether the context was reset since: the handle is gone with the old context. */
  get stale(): boolean {
    return this.ctx.generation !== this.generation;
  }
}

/**
 * How one kind of object is released: `release(owned)` frees it in its context (unless the context
 * is released or was reset, which freed it already; while a stream capture is in progress, once it
 * has ended) and never throws; `registry` is the
 * FinalizationRegistry net that does the same for objects dropped without being freed.
 */
export function ownership<H>(free: (handle: H) => unknown): {
  release(owned: Owned<H>): void;
  registry: FinalizationRegistry<Owned<H>>;
} {
  const release = (o: Owned<H>) => {
    // A capture in progress would be broken by most frees (the driver refuses them, and invalidates
    // the capture): those wait until it ends.
    releaseWhenNotCapturing(() => {
      if (!o.ctx.released && !o.stale) quietly(() => o.ctx.run(() => free(o.handle)));
    });
  };
  return { release, registry: safeRegistry(release) };
}
