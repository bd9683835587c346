/**
 * Checks the host arguments of a simulated kernel or device function against its signature.
 *
 * @module
 */

import type { Binding } from "./ir.ts";
import { ELEMENTS, fits } from "./types.ts";

/**
 * Checks arguments and returns them ready for the simulator (f32 scalars rounded as the GPU receives
 * them), or throws a TypeError naming the first wrong one.
 *
 * @param failure the message prefix, `Cannot simulate kernel "add"`
 */
export function checkArgs(params: readonly Binding[], args: readonly unknown[], failure: string): unknown[] {
  if (args.length !== params.length) {
    const names = params.map((p) => p.name).join(", ");
    throw new TypeError(`${failure}: it takes ${params.length} arguments (${names}), got ${args.length}`);
  }
  return params.map((p, i) => {
    const arg = args[i];
    if (p.kind === "array") {
      const { array } = ELEMENTS[p.element];
      if (arg instanceof array) return arg;
      throw new TypeError(
        `${failure}: parameter ${p.name} ("${p.element}[]") needs a ${array.name}, got ${describe(arg)}`,
      );
    }
    const type = p.type;
    if (typeof arg !== "number") {
      throw new TypeError(`${failure}: parameter ${p.name} ("${type}") needs a number, got ${describe(arg)}`);
    }
    if ((type === "i32" || type === "u32") && !fits(arg, type)) {
      const range = type === "i32" ? "-2147483648 to 2147483647" : "0 to 4294967295";
      throw new TypeError(
        `${failure}: parameter ${p.name} ("${type}") needs an integer from ${range}, got ${arg}`,
      );
    }
    return type === "f32" ? Math.fround(arg) : arg;
  });
}

function describe(value: unknown): string {
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  if (typeof value === "number") return `the number ${value}`;
  if (Array.isArray(value)) return "an Array";
  return value === null ? "null" : typeof value === "object" ? "an object" : typeof value;
}
