/**
 * Host memory handed to asynchronous work on the legacy default stream: kept referenced until the
 * context is synchronized, so the garbage collector cannot free it while a copy may still read it.
 *
 * @module
 */

const held: unknown[] = [];

/** Keeps `value` alive until the next context-wide synchronize. */
export function holdForDefaultStream(value: unknown): void {
  held.push(value);
}

/** Drops every hold; called once the whole context has been synchronized. */
export function releaseDefaultStreamHolds(): void {
  held.length = 0;
}
