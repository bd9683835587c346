/**
 * Results of several arrays, as NumPy's named tuples are: a frozen array of the values in NumPy's
 * order (so `const [q, r] = ga.linalg.qr(a)` unpacks it) that also has them under NumPy's field names
 * (`ga.linalg.qr(a).Q`).
 *
 * @module
 */

/**
 * `values` in order, also readable by `names`' keys.
 *
 * @example
 * ```ts
 * import { named } from "./results.ts";
 * const r = named([1, 2] as const, { a: 1, b: 2 });
 * const [x, y] = r; // 1, 2
 * console.log(r.b); // 2
 * ```
 */
export function named<T extends readonly unknown[], N extends Record<string, unknown>>(
  values: T,
  names: N,
): T & Readonly<N> {
  return Object.freeze(Object.assign([...values], names)) as unknown as T & Readonly<N>;
}
