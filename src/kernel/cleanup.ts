/**
 * Cleanup that never throws: frees run from `free()`, `[Symbol.dispose]` and finalizers, where an
 * exception would either mask the user's own error or crash the process.
 *
 * @module
 */

/** Runs `fn`, swallowing any exception (the resource is then already gone with its context or process). */
export function quietly(fn: () => unknown): void {
  try {
    fn();
  } catch {
    // a failed release means the owner (context, platform) is already gone
  }
}

/** A FinalizationRegistry whose callback can never throw. */
export function safeRegistry<T>(release: (held: T) => unknown): FinalizationRegistry<T> {
  return new FinalizationRegistry<T>((held) => quietly(() => release(held)));
}
