/**
 * One OpenCL platform and device enumeration at a time in this process. Workers are threads of one
 * process, and PoCL (3.1, Debian 12's) starts its devices on the first `clGetDeviceIDs`: a call from
 * another thread while that runs returns `CL_DEVICE_NOT_FOUND` (its `pocl_init_devices()` returns early
 * while an initialization is in progress, before any device exists), so one of four Workers starting
 * together saw "the installed platforms report no devices" in about one run in six. Enumerating under
 * a lock that binds every thread of the process lets the first one finish before the next one asks.
 *
 * The lock is an `flock` on `/proc/self/statm` (as `quiet_build.ts` does with `/proc/self/stat`; a
 * file of its own, so a build never waits for it): each call opens the file anew, so two threads hold
 * two open file descriptions of one file, which exclude each other, and another process's
 * `/proc/self` is another file. It is taken without blocking, retried every few milliseconds: a Worker
 * terminated while it held the lock (its descriptor is closed only with its `finally`, which
 * termination skips) would otherwise stop every later enumeration; after {@link GIVE_UP_MS} the
 * enumeration goes ahead without it. Where there is no `/proc` or C library (not Linux), enumerations
 * are not serialized.
 *
 * @module
 */

import { libc } from "../../ffi/libc.ts";

const O_RDONLY_CLOEXEC = 0o2000000;
const LOCK_EX_NB = 2 | 4;
const LOCK_PATH = new TextEncoder().encode("/proc/self/statm\0");
/** How long a thread waits for another's enumeration before enumerating without the lock. */
const GIVE_UP_MS = 10_000;

/** Nesting in this thread: an inner enumeration runs under the outer one's lock. */
let depth = 0;
/** Slept on between tries (nothing ever wakes it: `Atomics.wait` is the synchronous sleep). */
const nap = new Int32Array(new SharedArrayBuffer(4));

/** An open descriptor of the lock file, locked, or -1 where the lock is not available. */
function lock(): number {
  if (Deno.build.os !== "linux" || !libc.available()) return -1;
  const lib = libc.get();
  const fd = lib.open(LOCK_PATH, O_RDONLY_CLOEXEC);
  if (fd < 0) return -1;
  const until = Date.now() + GIVE_UP_MS;
  for (let wait = 1; lib.flock(fd, LOCK_EX_NB) !== 0; wait = Math.min(wait * 2, 20)) {
    if (Date.now() >= until) {
      lib.close(fd);
      return -1;
    }
    Atomics.wait(nap, 0, 0, wait);
  }
  return fd;
}

/**
 * Runs `enumerate` (calls of `clGetPlatformIDs` and `clGetDeviceIDs`) while no other thread of this
 * process enumerates, and returns what it returns.
 *
 * @example
 * ```ts
 * import { enumerating } from "./enumeration.ts";
 * const count = enumerating(() => 1);
 * ```
 */
export function enumerating<T>(enumerate: () => T): T {
  if (depth > 0) return enumerate();
  const fd = lock();
  depth++;
  try {
    return enumerate();
  } finally {
    depth--;
    if (fd >= 0) libc.get().close(fd); // releases the lock
  }
}
