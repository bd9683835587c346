/**
 * The check every array function with an options object makes first. JavaScript ignores what a
 * function does not read, so a NumPy habit such as `cumsum(a, 1)`, `diff(a, 2)` or
 * `linspace(0, 1, 5, false)` would otherwise run with the defaults and give another result.
 *
 * @module
 */

/**
 * Throws a TypeError unless `options` is undefined or an object: `what` names the call, `example`
 * shows the object to pass (`"{ axis: 0 }"`).
 */
export function checkOptions(options: unknown, what: string, example: string): void {
  if (options === undefined || (typeof options === "object" && options !== null && !Array.isArray(options))) {
    return;
  }
  const shown = typeof options === "string"
    ? JSON.stringify(options)
    : Array.isArray(options)
    ? `[${options.join(", ")}]`
    : String(options);
  throw new TypeError(`Cannot ${what} with options ${shown}: pass an object such as ${example}`);
}
