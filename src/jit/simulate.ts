/**
 * Runs translated kernels in JavaScript: the typed IR is compiled once into closures (`closures.ts`),
 * then every thread of every block runs them with its own indices, on the host arrays the caller
 * passed. A block's threads share its shared arrays. Kernels that call `syncthreads()` run each
 * thread as a generator that yields at every barrier; the block's threads are stepped in turn from one
 * barrier to the next, so a barrier inside loops and branches works as it does on a GPU, and a block
 * whose threads do not all reach the same barrier is reported.
 *
 * @module
 */

import {
  compiled,
  Fault,
  type Frame,
  type Gen,
  place,
  type Run,
  type Thread,
  type Triple,
} from "./closures.ts";
import type { Geometry } from "./config.ts";
import { JitSimulationError } from "./errors.ts";
import { type ArrayBinding, type FunctionIR, walk } from "./ir.ts";
import { ELEMENTS } from "./types.ts";

function triple(t: Readonly<Triple>): string {
  return `(${t.join(", ")})`;
}

/**
 * Runs a kernel over a grid. `args` are checked host values in parameter order.
 *
 * @param failure the message prefix, `Cannot simulate kernel "add"`
 */
export function simulateKernel(
  kernel: FunctionIR,
  geometry: Geometry,
  args: readonly unknown[],
  failure: string,
): void {
  const body = compiled(kernel);
  const shared: ArrayBinding[] = [];
  walk(kernel.body, { stmt: (s) => s.kind === "shared" && shared.push(s.binding) });
  const [bx, by, bz] = geometry.block;
  const [gx, gy, gz] = geometry.grid;
  for (let z = 0; z < gz; z++) {
    for (let y = 0; y < gy; y++) {
      for (let x = 0; x < gx; x++) {
        const blockIdx: Triple = [x, y, z];
        const memory = shared.map((b) => new ELEMENTS[b.element].array(b.length));
        const frames: Frame[] = [];
        for (let tz = 0; tz < bz; tz++) {
          for (let ty = 0; ty < by; ty++) {
            for (let tx = 0; tx < bx; tx++) {
              const t: Thread = {
                threadIdx: [tx, ty, tz],
                blockIdx,
                blockDim: geometry.block,
                gridDim: geometry.grid,
              };
              const frame = newFrame(kernel, t, args);
              shared.forEach((b, i) => (frame.v[b.slot] = memory[i]));
              frames.push(frame);
            }
          }
        }
        if (body.run) {
          for (const f of frames) guard(f, failure, () => body.run(f));
        } else {
          step(kernel, frames, body.gen, failure);
        }
      }
    }
  }
}

/** Runs one device function as the single thread of a 1×1×1 grid and returns its result. */
export function invokeDevice(fn: FunctionIR, args: readonly unknown[], failure: string): number {
  const one: Triple = [1, 1, 1];
  const frame = newFrame(
    fn,
    { threadIdx: [0, 0, 0], blockIdx: [0, 0, 0], blockDim: one, gridDim: one },
    args,
  );
  guard(frame, failure, () => (compiled(fn).run as Run)(frame));
  return frame.ret;
}

function newFrame(fn: FunctionIR, t: Thread, args: readonly unknown[]): Frame {
  const frame: Frame = { v: new Array(fn.slots), t, ret: 0 };
  fn.params.forEach((p, i) => (frame.v[p.slot] = args[i]));
  return frame;
}

function guard<T>(f: Frame, failure: string, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (!(e instanceof Fault)) throw e;
    throw new JitSimulationError(
      `${failure}: ${e.message}, in thread ${triple(f.t.threadIdx)} of block ${triple(f.t.blockIdx)}`,
      f.t.threadIdx,
      f.t.blockIdx,
    );
  }
}

/** Steps a block's threads from barrier to barrier. */
function step(kernel: FunctionIR, frames: Frame[], gen: Gen, failure: string): void {
  const threads = frames.map((f) => gen(f));
  const waiting = new Array<number>(threads.length).fill(-1);
  let done = 0;
  while (done < threads.length) {
    done = 0;
    threads.forEach((thread, i) => {
      if (waiting[i] === -2) {
        done++;
        return;
      }
      const r = guard(frames[i], failure, () => thread.next());
      if (r.done) {
        waiting[i] = -2;
        done++;
      } else {
        waiting[i] = r.value;
      }
    });
    if (done === threads.length) return;
    const first = waiting.findIndex((w) => w >= 0);
    const odd = waiting.findIndex((w) => w !== waiting[first]);
    if (odd >= 0) {
      const [a, b] = [frames[first].t, frames[odd].t];
      const barrier = (id: number) => `the syncthreads() at ${place(kernel.barriers[id], kernel)}`;
      const other = waiting[odd] === -2 ? "exited without reaching it" : `waits at ${barrier(waiting[odd])}`;
      throw new JitSimulationError(
        `${failure}: thread ${triple(a.threadIdx)} of block ${triple(a.blockIdx)} waits at ${
          barrier(waiting[first])
        }, ` +
          `but thread ${
            triple(b.threadIdx)
          } ${other}: every thread of a block must reach the same syncthreads()`,
        b.threadIdx,
        b.blockIdx,
      );
    }
  }
}
