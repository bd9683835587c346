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
