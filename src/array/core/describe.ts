/**
 * How error messages show a value the caller passed: short, on one line, and never `[object Object]`
 * or an array's whole text.
 *
 * @module
 */

/** Items of a list shown before the rest is summarised. */
const SHOWN_ITEMS = 8;
/** Characters of an object's JSON shown at most. */
const SHOWN_JSON = 60;

/**
 * `value` as a message quotes it: strings in quotes, bigints with their `n`, lists item by item, a
 * GPUArray by its dtype and shape (without reading it), a plain object as its JSON where that is
 * short, anything else by its kind (`a function`, `a Map`).
 *
 * @example
 * ```ts
 * import { describe } from "./describe.ts";
 * console.log(describe({}), describe(["2", 3]), describe(undefined)); // {} ["2", 3] undefined
 * ```
 */
export function describe(value: unknown): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "bigint":
      return `${value}n`;
    case "function":
      return "a function";
    case "symbol":
      return value.toString();
    case "object":
      break;
    default:
      return String(value);
  }
  if (value === null) return "null";
  if (Array.isArray(value)) {
    const items = value.slice(0, SHOWN_ITEMS).map(describe);
    if (value.length > SHOWN_ITEMS) items.push(`… ${value.length - SHOWN_ITEMS} more`);
    return `[${items.join(", ")}]`;
  }
  const array = value as { dtype?: unknown; shape?: unknown; freed?: unknown };
  if (typeof array.dtype === "string" && Array.isArray(array.shape)) {
    return `${array.freed === true ? "a freed" : "a"} ${array.dtype} array of shape [${
      array.shape.join(", ")
    }]`;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) {
    try {
      const json = JSON.stringify(value);
      if (json !== undefined && json.length <= SHOWN_JSON) return json;
    } catch {
      // a bigint or a cycle inside: shown by its kind below
    }
    return "an object";
  }
  const name = (proto?.constructor as { name?: unknown } | undefined)?.name;
  return typeof name === "string" && name !== ""
    ? `${/^[AEIOU]/.test(name) ? "an" : "a"} ${name}`
    : "an object";
}
