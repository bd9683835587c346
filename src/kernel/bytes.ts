/**
 * Byte counts for messages, in binary units (`512 B`, `1.5 KiB`, `139.8 GiB`, `16 TiB`).
 *
 * @module
 */

const UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"] as const;

/**
 * `bytes` in the largest binary unit that leaves a number of at least 1, with at most two decimals and
 * no trailing zeros: `16 TiB` (never `16384.00 GiB`), `139.8 GiB`, `2.5 MiB`, `1023 B`.
 *
 * @example
 * ```ts
 * import { formatBytes } from "./bytes.ts";
 * console.log(formatBytes(2n ** 44n)); // 16 TiB
 * console.log(formatBytes(1536)); // 1.5 KiB
 * ```
 */
export function formatBytes(bytes: number | bigint): string {
  let n = Number(bytes), unit = 0;
  while (Math.abs(n) >= 1024 && unit < UNITS.length - 1) {
    n /= 1024;
    unit++;
  }
  return `${Number(n.toFixed(2))} ${UNITS[unit]}`;
}
