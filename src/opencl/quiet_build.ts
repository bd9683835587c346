/**
 * Keeping an OpenCL compiler's own summary lines off standard error. PoCL's clang prints
 * `1 warning generated.` and `1 error generated.` straight to the process's standard error, beside
 * the build log that holds every diagnostic in full; no build option or PoCL variable turns that off
 * (PoCL accepts only `-cl-*`, `-w`, `-Werror`, `-g`, `-D` and `-I`, and `-w` would drop the warnings
 * from the log too). So while a program builds, file descriptor 2 points into a memory file; after
 * it, whatever was written there goes back to standard error, less those summary lines.
 *
 * Only on Linux, and only one thread at a time: descriptor 2 belongs to the whole process, and workers
 * or `deno test --parallel` build on other threads. A lock on `/proc/self/stat` (an `flock`, which
 * binds every thread of this process and no other process) is taken without waiting; a thread that
 * finds it taken builds without capturing, its lines then landing in the capture under way. Anything
 * else written meanwhile is written back after the build.
 *
 * @module
 */

import { libc } from "../../ffi/libc.ts";

const STDERR = 2;
const SEEK_SET = 0;
const SUMMARY = /^\d+ (warnings?|errors?)( and \d+ (warnings?|errors?))? generated\.$/;

const O_RDONLY_CLOEXEC = 0o2000000;
const LOCK_EX_NB = 2 | 4;
const LOCK_PATH = new TextEncoder().encode("/proc/self/stat\0");

function readAll(fd: number): Uint8Array {
  const lib = libc.get();
  if (lib.lseek(fd, 0n, SEEK_SET) !== 0n) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  for (;;) {
    const chunk = new Uint8Array(65536);
    const n = Number(lib.read(fd, chunk, BigInt(chunk.length)));
    if (n <= 0) break;
    chunks.push(chunk.subarray(0, n));
  }
  const out = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0));
  let at = 0;
  for (const c of chunks) out.set(c, (at += c.length) - c.length);
  return out;
}

function writeAll(bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length;) at += Deno.stderr.writeSync(bytes.subarray(at));
}

/**
 * Runs `build` (which calls `clBuildProgram`) with standard error captured, then writes back what it
 * captured without the compiler's `N warnings generated.` lines. Where capturing is not possible, just
 * runs `build`.
 *
 * @example
 * ```ts
 * import { withoutCompilerSummary } from "./quiet_build.ts";
 * const built = withoutCompilerSummary(() => 42);
 * ```
 */
export function withoutCompilerSummary<T>(build: () => T): T {
  if (Deno.build.os !== "linux" || !libc.available()) return build();
  const lib = libc.get();
  const lock = lib.open(LOCK_PATH, O_RDONLY_CLOEXEC);
  if (lock < 0) return build();
  if (lib.flock(lock, LOCK_EX_NB) !== 0) {
    lib.close(lock);
    return build();
  }
  try {
    return captured(lib, build);
  } finally {
    lib.close(lock); // releases the lock
  }
}

function captured<T>(lib: ReturnType<typeof libc.get>, build: () => T): T {
  const memory = lib.memfd_create(new TextEncoder().encode("cudeno-build-stderr\0"), 0);
  if (memory < 0) return build();
  const saved = lib.dup(STDERR);
  if (saved < 0 || lib.dup2(memory, STDERR) < 0) {
    if (saved >= 0) lib.close(saved);
    lib.close(memory);
    return build();
  }
  try {
    return build();
  } finally {
    lib.dup2(saved, STDERR);
    lib.close(saved);
    const text = new TextDecoder().decode(readAll(memory));
    lib.close(memory);
    const kept = text.split("\n").filter((line) => !SUMMARY.test(line)).join("\n");
    if (kept.trim() !== "") writeAll(new TextEncoder().encode(kept.endsWith("\n") ? kept : `${kept}\n`));
  }
}
