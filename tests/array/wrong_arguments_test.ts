// Messages, not internals (issue 34, item 5): every public function of the array module, and every
// method of GPUArray, called with wrong kinds of argument (undefined, a string, an object, a negative
// size, a freed array) in each of its first positions, must either work or throw an error that says
// what was wrong in the caller's terms — never JavaScript's own `Cannot read properties of undefined`,
// `x is not iterable`, `x.map is not a function`, nor `[object Object]` in place of the value.
import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";

/** What a message must not say: the runtime's words for a bug of the library's, or a value unshown. */
const LEAKS: readonly RegExp[] = [
  /Cannot read properties of/,
  /is not iterable/,
  /\[object Object\]/,
  /^[\w$.[\]]+ is not a (function|constructor)/,
  /Cannot convert undefined or null/,
  /Cannot destructure/,
  /cannot be converted to a BigInt/,
  /Cannot mix BigInt/,
  /Invalid (typed )?array length/,
  /Maximum call stack size exceeded/,
];

/**
 * Findings in files another change owns, each a function's name and where it goes wrong. The test
 * fails while such a function still leaks and is not listed, and when one listed no longer does (so
 * the list is kept true): remove its entry with the fix.
 */
const PENDING: Readonly<Record<string, string>> = {};

/** Module members that are not functions of arrays: error classes, and the calls that set global state. */
const SKIPPED = new Set(["NpyError", "CublasError", "useBackend", "useStream"]);

const KINDS: readonly [string, (freed: ga.GPUArray) => unknown][] = [
  ["undefined", () => undefined],
  ["a string", () => "a string"],
  ["an object", () => ({})],
  ["-1", () => -1],
  ["a freed array", (freed) => freed],
];

/** Every function of the module (and of `ga.random`), and every method of GPUArray, by name. */
function functions(): [string, number, (self: ga.GPUArray, args: unknown[]) => unknown][] {
  const out: [string, number, (self: ga.GPUArray, args: unknown[]) => unknown][] = [];
  const add = (name: string, f: unknown) => {
    if (typeof f !== "function" || SKIPPED.has(name)) return;
    const isClass = /^class\b/.test(Function.prototype.toString.call(f)) ||
      name.endsWith("ElementwiseKernel") || name.endsWith("ReductionKernel");
    out.push([name, f.length, (_, args) => isClass ? Reflect.construct(f, args) : f(...args)]);
  };
  for (const [name, f] of Object.entries(ga)) add(name, f);
  for (const [name, f] of Object.entries(ga.random)) add(`random.${name}`, f);
  const proto = ga.GPUArray.prototype as unknown as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(proto)) {
    const method = Object.getOwnPropertyDescriptor(proto, name)!.value;
    if (name === "constructor" || typeof method !== "function") continue;
    out.push([`a.${name}`, method.length, (self, args) => method.apply(self, args)]);
  }
  return out;
}

/** The message of what `call` throws (or of what the function it returns throws), if anything. */
async function thrown(call: () => unknown): Promise<unknown> {
  try {
    let result = call();
    if (result instanceof Promise) result = await result;
    if (result instanceof ga.GPUArray) result.free();
    return undefined;
  } catch (e) {
    return e;
  }
}

eachBackend(
  "every public function given a wrong kind of argument says what was wrong, not the runtime's words",
  async () => {
    const freed = ga.zeros([2, 3]);
    freed.free();
    const leaks = new Map<string, string[]>();
    for (const [name, length, call] of functions()) {
      const combos: [string, () => unknown[]][] = [["()", () => []]];
      for (const [kind, make] of KINDS) {
        // The first two positions, and the third where the function declares three parameters.
        for (let at = 0; at < Math.max(2, Math.min(length, 3)); at++) {
          combos.push([
            `(${[...Array(at).fill("a"), kind].join(", ")})`,
            () => [...Array.from({ length: at }, () => ga.asarray([[1, 2, 3], [4, 5, 6]])), make(freed)],
          ]);
        }
      }
      for (const [shown, args] of combos) {
        using self = ga.asarray([[1, 2, 3], [4, 5, 6]]);
        const given = args();
        const error = await thrown(() => {
          const result = call(self, given);
          return name === "fuse" && typeof result === "function" ? result(self) : result;
        });
        for (const a of given) if (a instanceof ga.GPUArray && a !== freed) a.free();
        const message = error instanceof Error
          ? error.message
          : error === undefined
          ? ""
          : `throws ${String(error)}`;
        if (error !== undefined && !(error instanceof Error) || LEAKS.some((leak) => leak.test(message))) {
          const list = leaks.get(name) ?? [];
          list.push(`${name.startsWith("a.") ? name : `ga.${name}`}${shown}: ${message.split("\n")[0]}`);
          leaks.set(name, list);
        }
        ga.useStream(undefined);
      }
    }
    const unlisted = [...leaks].filter(([name]) => !(name in PENDING)).flatMap(([, list]) => list);
    assert.deepEqual(unlisted, [], `these calls leak the runtime's words:\n${unlisted.join("\n")}`);
    const fixed = Object.keys(PENDING).filter((name) => !leaks.has(name));
    assert.deepEqual(fixed, [], "these no longer leak: remove them from PENDING");
  },
);
