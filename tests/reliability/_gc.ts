/** Runs the garbage collector (the test task passes --expose-gc) and lets finalizers run. */
export async function collectGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("run with --v8-flags=--expose-gc (deno task test does)");
  for (let i = 0; i < 5; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Resident set size in MiB, after a full garbage collection (so garbage not yet collected is not counted). */
export function rssMiB(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return Deno.memoryUsage().rss / 2 ** 20;
}

/** The V8 heap in use and the memory outside V8's heap (RSS less the committed heap), in MiB, after a full GC. */
export function memoryMiB(): { heapUsed: number; native: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const m = Deno.memoryUsage();
  return { heapUsed: m.heapUsed / 2 ** 20, native: (m.rss - m.heapTotal) / 2 ** 20 };
}
