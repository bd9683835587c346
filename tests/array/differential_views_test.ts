/**
 * Differential tests of views and writes through them (array-api.md "Views"): every view method with
 * random arguments on random views, and `fill`/`assign` through random views, checked on the base.
 */

import type { DType } from "../../src/kernel/dtype.ts";
import { kind } from "./_reference_dtype.ts";
import type { SliceSpec } from "./_reference_shape.ts";
import { ALL_DTYPES, broadcastable, randomInput, randomShape, randomValue, type Rng } from "./_cases.ts";
import { Arg, ARITH, type Case, differential, type OpSpec } from "./_differential.ts";

const lone = ALL_DTYPES.map((d) => [d]);

/** An axis in [0, n) written at random as its negative twin. */
const axis = (rng: Rng, n: number) => {
  const a = rng.int(0, n - 1);
  return rng.chance(0.3) ? a - n : a;
};

/** Random slice specs for a shape, forward: indices, clamped ranges, negative steps, new axes, an ellipsis. */
function randomSpecs(rng: Rng, shape: readonly number[]): SliceSpec[] | [string] {
  const n = shape.length, m = rng.int(0, n), lead = m < n && rng.chance(0.3);
  const specs: SliceSpec[] = lead ? ["..."] : [];
  for (const d of lead ? shape.slice(n - m) : shape.slice(0, m)) {
    if (rng.chance(0.1)) specs.push(null);
    if (d > 0 && rng.chance(0.2)) specs.push(rng.int(-d, d - 1));
    else {
      const bound = () => (rng.chance(0.3) ? null : rng.int(-d - 2, d + 2));
      specs.push(
        rng.chance(0.5) ? [bound(), bound()] : [bound(), bound(), rng.pick([null, 1, 2, 3, -1, -2, -3])],
      );
    }
  }
  if (!lead && rng.chance(0.2)) specs.push("...");
  if (specs.length > 0 && rng.chance(0.25)) {
    return [
      specs.map((s) =>
        s === null
          ? "None"
          : typeof s === "number" || s === "..."
          ? String(s)
          : s.map((v) => v ?? "").join(":")
      ).join(", "),
    ];
  }
  return specs;
}

/** Random extents of the same size as `size` (one of them maybe -1). */
function randomReshape(rng: Rng, size: number): number[] {
  const dims: number[] = [];
  let left = size;
  for (let k = rng.int(0, 4); k > 0 && left > 1; k--) {
    const divisors = [...Array(left).keys()].map((d) => d + 1).filter((d) => left % d === 0);
    const d = rng.pick(divisors);
    dims.push(d);
    left /= d;
  }
  if (size === 0) dims.push(0, ...(rng.chance(0.5) ? [rng.int(1, 3)] : []));
  else if (left > 1 || dims.length === 0) dims.push(left);
  const shuffled = rng.shuffle(dims);
  if (size > 0 && rng.chance(0.3)) shuffled[rng.int(0, shuffled.length - 1)] = -1;
  return shuffled;
}

/** The arguments of one call of a view method on an array of `shape` (undefined: it does not apply). */
function viewArgs(rng: Rng, op: string, shape: readonly number[]): unknown[] | undefined {
  const n = shape.length;
  switch (op) {
    case "slice":
      return randomSpecs(rng, shape);
    case "transpose":
      return rng.chance(0.3) ? [] : rng.shuffle([...shape.keys()]).map((a) => (rng.chance(0.3) ? a - n : a));
    case "swapaxes":
      return n === 0 ? undefined : [axis(rng, n), axis(rng, n)];
    case "moveaxis": {
      if (n === 0) return undefined;
      const k = rng.int(1, n),
        src = rng.shuffle([...shape.keys()]).slice(0, k),
        dst = rng.shuffle([...shape.keys()]).slice(0, k);
      return k === 1 && rng.chance(0.5) ? [src[0], dst[0]] : [src, dst];
    }
    case "squeeze": {
      const ones = [...shape.keys()].filter((k) => shape[k] === 1);
      if (ones.length === 0 || rng.chance(0.3)) return [];
      const some = rng.shuffle(ones).slice(0, rng.int(1, ones.length));
      return [some.length === 1 && rng.chance(0.5) ? some[0] : some];
    }
    case "expandDims": {
      const k = rng.int(1, 2), out = n + k;
      const axes = rng.shuffle([...Array(out).keys()]).slice(0, k).map((
        a,
      ) => (rng.chance(0.3) ? a - out : a));
      return [k === 1 && rng.chance(0.5) ? axes[0] : axes];
    }
    case "broadcastTo": {
      const lead = Array.from({ length: rng.int(0, 2) }, () => rng.int(0, 3));
      return [[...lead, ...shape.map((d) => (d === 1 ? rng.pick([1, 2, 3]) : d))]];
    }
    case "flip":
      return n === 0 || rng.chance(0.3)
        ? []
        : rng.chance(0.5)
        ? [axis(rng, n)]
        : [rng.shuffle([...shape.keys()]).slice(0, rng.int(1, n))];
    case "reshape": {
      const dims = randomReshape(rng, shape.reduce((a, b) => a * b, 1));
      return rng.chance(0.5) ? dims : [dims];
    }
    case "diagonal": {
      if (n < 2) return undefined;
      const a1 = rng.int(0, n - 1), a2 = (a1 + rng.int(1, n - 1)) % n;
      return rng.chance(0.2) ? [] : [{ offset: rng.int(-3, 3), axis1: a1, axis2: a2 }];
    }
    default:
      return [];
  }
}

/** A view op applied with random arguments to a random view of a random array. */
function viewOp(op: string, forms: OpSpec["forms"]): OpSpec {
  return {
    op,
    forms,
    dtypes: lone,
    make: (rng, [d]) => {
      for (;;) {
        const shape = randomShape(rng, { maxSize: 300 });
        const args = viewArgs(rng, op, shape);
        if (args !== undefined) return { inputs: [randomInput(rng, d!, shape)], args: [new Arg(0), ...args] };
      }
    },
  };
}

const both: OpSpec["forms"] = ["function", "method"];
const methodOnly: OpSpec["forms"] = ["method"];

differential("views: every view method on random views", [
  viewOp("slice", methodOnly),
  viewOp("transpose", methodOnly),
  viewOp("T", methodOnly),
  ...[
    "swapaxes",
    "moveaxis",
    "squeeze",
    "expandDims",
    "broadcastTo",
    "ravel",
    "flip",
    "reshape",
    "diagonal",
    "copy",
  ]
    .map((op) => viewOp(op, both)),
  viewOp("flatten", methodOnly),
  viewOp("ascontiguousarray", ["function"]),
], { cases: 200 });

differential("views: tolist and item of random views", [
  viewOp("tolist", methodOnly),
  {
    op: "item",
    forms: methodOnly,
    dtypes: lone,
    make: (rng, [d]) => {
      const shape = Array.from({ length: rng.int(0, 3) }, () => (rng.chance(0.05) ? 2 : 1)); // rarely not one element
      return { inputs: [randomInput(rng, d!, shape)], args: [new Arg(0)] };
    },
  },
], { cases: 30 });

/** A writable view (no broadcast, no reshape: NumPy copies there) and what is written through it. */
function writeCase(rng: Rng, dtypes: readonly DType[], op: "fill" | "assign"): Case {
  const shape = randomShape(rng, { maxSize: 300 });
  const target = randomInput(rng, dtypes[0]!, shape, {
    kinds: ["slice", "slice", "transpose", "flip", "expandDims"],
  });
  if (op === "fill" || dtypes.length === 1) {
    const d = dtypes[0]!;
    const v = randomValue(rng, d === "bool" ? "uint8" : d, {
      extremes: false,
      range: d === "bool" ? [0, 1] : undefined,
    });
    return { inputs: [target], args: [new Arg(0), v], check: 0 };
  }
  // Floats become integers only where the truncated value fits (C leaves the rest unspecified).
  const [to, from] = dtypes as [DType, DType];
  const range: [number, number] | undefined = kind(from) !== "float" || kind(to) === "float" || to === "bool"
    ? undefined
    : kind(to) === "uint"
    ? [0, 200]
    : [-100, 100];
  const source = randomInput(rng, from, broadcastable(rng, shape), {
    specials: false,
    extremes: false,
    range,
  });
  return { inputs: [target, source], args: [new Arg(0), new Arg(1)], check: 0 };
}

differential("views: fill and assign through random views, read back from the base", [
  { op: "fill", forms: methodOnly, dtypes: lone, make: (rng, d) => writeCase(rng, d, "fill") },
  {
    op: "assign",
    forms: methodOnly,
    tol: ARITH,
    dtypes: [...lone, ...ALL_DTYPES.flatMap((a) => ALL_DTYPES.map((b) => [a, b]))],
    make: (rng, d) => writeCase(rng, d, "assign"),
  },
], { cases: 100 });
