/**
 * The check every array function with an options object makes first. JavaScript ignores what a
 * function does not read, so a NumPy habit such as `cumsum(a, 1)`, `diff(a, 2)` or
 * `linspace(0, 1, 5, false)`, or a misspelt option such as `keepDims`, would otherwise run with the
 * defaults and give another result.
 *
 * @module
 */

/**
 * Throws a TypeError unless `options` is undefined or an object whose keys are all `known`: `what`
 * names the call, `example` shows an object to pass (`"{ axis: 0 }"`).
 */
export function checkOptions(
  options: unknown,
  what: string,
  example: string,
  known: readonly string[],
): void {
  if (options === undefined) return;
  const proto = typeof options === "object" && options !== null ? Object.getPrototypeOf(options) : undefined;
  // Only a plain object is options: an array, or a class's instance (a GPUArray), is refused by its kind.
  if (proto !== Object.prototype && proto !== null) {
    const shown = typeof options === "string"
      ? JSON.stringify(options)
      : Array.isArray(options)
      ? `[${options.join(", ")}]`
      : typeof options === "object" && options !== null
      ? `of a ${options.constructor?.name ?? "class"}`
      : String(options);
    throw new TypeError(`Cannot ${what} with options ${shown}: pass an object such as ${example}`);
  }
  for (const key in options) {
    if (known.includes(key)) continue;
    const near = known.find((k) => k.toLowerCase() === key.toLowerCase());
    throw new TypeError(
      `Cannot ${what} with option "${key}": ${near === undefined ? "" : `did you mean ${near}? `}${
        known.length === 1 ? "the only option is" : "the options are"
      } ${known.join(", ")}`,
    );
  }
}
