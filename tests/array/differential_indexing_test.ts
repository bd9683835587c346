/**
 * Differential tests of indexing, joining and creation (array-api.md "Indexing, joining, creation"):
 * random views, dtypes, axes and index arrays against the host reference.
 */

import type { DType } from "../../src/kernel/dtype.ts";
import { cast, kind, type Value } from "./_reference_dtype.ts";
import { sizeOf } from "./_reference_shape.ts";
import {
  ALL_DTYPES,
  type Input,
  randomInput,
  randomShape,
  randomValue,
  randomValues,
  refInput,
  type Rng,
} from "./_cases.ts";
import { Arg, ARITH, type Case, differential, type OpSpec, type Tolerance } from "./_differential.ts";

const lone = ALL_DTYPES.map((d) => [d]);
const INDEX_DTYPES: DType[] = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"];
const withIndex = ALL_DTYPES.flatMap((d) => INDEX_DTYPES.map((i) => [d, i]));
const pairs = ALL_DTYPES.flatMap((a) => ALL_DTYPES.map((b) => [a, b]));
const fn: OpSpec["forms"] = ["function"];
const WRITABLE = ["slice", "slice", "transpose", "flip", "expandDims"];

const axisOrNone = (rng: Rng, ndim: number): number | undefined =>
  ndim === 0 || rng.chance(0.25) ? undefined : rng.int(-ndim, ndim - 1);
const norm = (axis: number, ndim: number) => (axis < 0 ? axis + ndim : axis);
const refShape = (input: Input): number[] => [...refInput(input).view.shape];

/** An index array of `dtype` and `shape` into `n` positions (negative from the end where signed); rarely one out of range. */
function indexInput(
  rng: Rng,
  dtype: DType,
  shape: number[],
  n: number,
  bad: boolean,
  distinct = false,
): Input {
  const signed = kind(dtype) === "int";
  const size = sizeOf(shape);
  const hi = Math.min(n - 1, dtype === "int8" ? 127 : dtype === "uint8" ? 255 : n - 1);
  const positions = distinct ? rng.shuffle([...Array(n).keys()]).slice(0, size) : [];
  const values: Value[] = Array.from({ length: size }, (_, k) => {
    let v = distinct ? positions[k]! : rng.int(0, Math.max(0, hi));
    if (signed && rng.chance(0.3) && v - n >= -128) v -= n;
    if (bad && rng.chance(0.02)) v = n + rng.int(0, 3); // out of range: RangeError
    return cast(v, dtype);
  });
  return { dtype, shape, values, steps: [] };
}

function takeCase(rng: Rng, [d, i]: readonly DType[]): Case {
  const a = randomInput(rng, d!, randomShape(rng, { maxSize: 200 }));
  const shape = refShape(a);
  const axis = axisOrNone(rng, shape.length);
  const n = axis === undefined ? sizeOf(shape) : shape[norm(axis, shape.length)]!;
  const ishape = n === 0 ? [0] : randomShape(rng, { maxRank: 2, maxSize: 12 });
  const args: unknown[] = [new Arg(0), new Arg(1)];
  if (axis !== undefined) args.push(axis);
  // Out-of-range indices only into a non-empty array (NumPy skips the check when nothing is read).
  return { inputs: [a, indexInput(rng, i!, ishape, n, sizeOf(shape) > 0)], args };
}

function putCase(rng: Rng, [d, i, v]: readonly DType[]): Case {
  const target = randomInput(rng, d!, randomShape(rng, { maxSize: 200 }), { kinds: WRITABLE });
  const n = sizeOf(refShape(target));
  const k = rng.int(0, Math.min(n, 10));
  const idx = indexInput(rng, i!, [k], n, false, true);
  if (v === undefined) {
    return {
      inputs: [target, idx],
      args: [
        new Arg(0),
        new Arg(1),
        randomValue(rng, d === "bool" ? "uint8" : d!, {
          range: d === "bool" ? [0, 1] : undefined,
          specials: false,
        }),
      ],
      check: 0,
    };
  }
  const range: [number, number] | undefined = kind(v) === "float" && kind(d!) !== "float" && d !== "bool"
    ? (kind(d!) === "uint" ? [0, 200] : [-100, 100])
    : undefined;
  const values = randomInput(rng, v, [rng.int(1, Math.max(1, k))], { range, specials: false });
  return { inputs: [target, idx, values], args: [new Arg(0), new Arg(1), new Arg(2)], check: 0 };
}

function compressCase(rng: Rng, [d]: readonly DType[]): Case {
  const a = randomInput(rng, d!, randomShape(rng, { maxSize: 200 }));
  const shape = refShape(a), axis = axisOrNone(rng, shape.length);
  const n = axis === undefined ? sizeOf(shape) : shape[norm(axis, shape.length)]!;
  const cond: Input = { dtype: "bool", shape: [n], values: randomValues(rng, "bool", n), steps: [] };
  return {
    inputs: [cond, a],
    args: axis === undefined ? [new Arg(0), new Arg(1)] : [new Arg(0), new Arg(1), axis],
  };
}

function maskCase(rng: Rng, [d]: readonly DType[]): Case {
  const a = randomInput(rng, d!, randomShape(rng, { maxSize: 200 }));
  const shape = refShape(a), lead = shape.slice(0, rng.int(shape.length === 0 ? 0 : 1, shape.length));
  return { inputs: [a, randomInput(rng, "bool", lead)], args: [new Arg(0), new Arg(1)] };
}

function sparseCase(rng: Rng, [d]: readonly DType[]): Case {
  const shape = randomShape(rng, { minRank: 1, maxSize: 200 });
  return { inputs: [randomInput(rng, d!, shape, { zeros: 0.6 })], args: [new Arg(0)] };
}

/** Arrays that join along `axis`: equal shapes except there (`stack`: equal everywhere). */
function joinCase(stack: boolean) {
  return (rng: Rng, dtypes: readonly DType[]): Case => {
    const shape = randomShape(rng, { minRank: stack ? 0 : 1, maxRank: 4, maxSize: 100 });
    const ndim = shape.length + (stack ? 1 : 0);
    const flat = !stack && rng.chance(0.1);
    const axis = rng.int(-ndim, ndim - 1), at = norm(axis, ndim);
    const count = rng.int(1, 4);
    const inputs = Array.from({ length: count }, (_, k) => {
      const s = [...shape];
      if (!stack) s[at] = rng.pick([0, 1, 2, 3, shape[at]!]);
      return randomInput(rng, dtypes[k % dtypes.length]!, flat ? randomShape(rng, { maxSize: 30 }) : s);
    });
    return { inputs, args: [inputs.map((_, k) => new Arg(k)), flat ? null : axis] };
  };
}

function splitCase(exact: boolean) {
  return (rng: Rng, [d]: readonly DType[]): Case => {
    const a = randomInput(rng, d!, randomShape(rng, { minRank: 1, maxSize: 200 }));
    const shape = refShape(a),
      axis = rng.int(-shape.length, shape.length - 1),
      n = shape[norm(axis, shape.length)]!;
    let sections: number | number[];
    if (rng.chance(0.4)) {
      sections = Array.from({ length: rng.int(0, 4) }, () => rng.int(0, n + 2)).sort((x, y) => x - y);
    } else if (exact) {
      sections = rng.pick(
        [...Array(n + 1).keys()].slice(1).filter((k) => n % k === 0).concat(n === 0 ? [1, 3] : []),
      );
    } else sections = rng.int(1, n + 3);
    return { inputs: [a], args: [new Arg(0), sections, axis] };
  };
}

function repeatCase(rng: Rng, [d]: readonly DType[]): Case {
  const a = randomInput(rng, d!, randomShape(rng, { maxSize: 100 }));
  const shape = refShape(a), axis = axisOrNone(rng, shape.length);
  const n = axis === undefined ? sizeOf(shape) : shape[norm(axis, shape.length)]!;
  const repeats = rng.chance(0.5) ? rng.int(0, 3) : Array.from({ length: n }, () => rng.int(0, 3));
  return { inputs: [a], args: axis === undefined ? [new Arg(0), repeats] : [new Arg(0), repeats, axis] };
}

function tileCase(rng: Rng, [d]: readonly DType[]): Case {
  const a = randomInput(rng, d!, randomShape(rng, { maxRank: 3, maxSize: 40 }));
  const reps = rng.chance(0.3) ? rng.int(0, 3) : Array.from({ length: rng.int(0, 4) }, () => rng.int(0, 3));
  return { inputs: [a], args: [new Arg(0), reps] };
}

function padCase(rng: Rng, [d]: readonly DType[]): Case {
  const a = randomInput(rng, d!, randomShape(rng, { maxRank: 4, maxSize: 100 }));
  const ndim = refShape(a).length, w = () => rng.int(0, 2);
  const forms = [() => w(), () => [w(), w()], () => Array.from({ length: ndim }, () => [w(), w()])];
  const width = rng.pick(ndim === 0 ? forms.slice(0, 2) : forms)(); // NumPy rejects [] for a 0-d array
  const value = randomValue(rng, d === "bool" ? "uint8" : d!, {
    range: d === "bool" ? [0, 1] : undefined,
    specials: false,
    extremes: false,
  });
  const options = rng.chance(0.3) ? [] : [{ mode: "constant", constantValues: value }];
  return { inputs: [a], args: [new Arg(0), width, ...options] };
}

differential("indexing: take, put, compress, mask, nonzero and argwhere on random views", [
  { op: "take", forms: fn, dtypes: withIndex, make: takeCase },
  {
    op: "put",
    forms: fn,
    dtypes: [
      ...withIndex,
      ...withIndex.map(([d, i]) => [d!, i!, ALL_DTYPES[(ALL_DTYPES.indexOf(d!) + 3) % 13]!]),
    ],
    make: putCase,
    tol: ARITH,
  },
  { op: "compress", forms: fn, dtypes: lone, make: compressCase },
  { op: "mask", forms: ["method"], dtypes: lone, make: maskCase },
  { op: "nonzero", forms: fn, dtypes: lone, make: sparseCase },
  { op: "argwhere", forms: fn, dtypes: lone, make: sparseCase },
], { cases: 150 });

differential("joining: concatenate, stack, split, arraySplit, repeat, tile and pad on random views", [
  { op: "concatenate", forms: fn, dtypes: [...lone, ...pairs], make: joinCase(false) },
  { op: "stack", forms: fn, dtypes: [...lone, ...pairs], make: joinCase(true) },
  { op: "split", forms: fn, dtypes: lone, make: splitCase(true) },
  { op: "arraySplit", forms: fn, dtypes: lone, make: splitCase(false) },
  { op: "repeat", forms: fn, dtypes: lone, make: repeatCase },
  { op: "tile", forms: fn, dtypes: lone, make: tileCase },
  { op: "pad", forms: fn, dtypes: lone, make: padCase },
], { cases: 100 });

// ---- creation -------------------------------------------------------------------------------------------

/** Nested JS arrays of `dtype`'s values as a user writes them: numbers, booleans for bool, bigints for 64-bit. */
function nested(rng: Rng, dtype: DType, shape: readonly number[]): unknown {
  const values = randomValues(rng, dtype, sizeOf(shape));
  let k = 0;
  const build = (depth: number): unknown =>
    depth === shape.length
      ? (dtype === "bool" ? values[k++] === 1 : values[k++])
      : Array.from({ length: shape[depth]! }, () => build(depth + 1));
  return build(0);
}

const shapeArg = (rng: Rng) => randomShape(rng, { maxRank: 3, maxSize: 60 });
const creationDtypes = lone;
const noInputs = (args: unknown[]): Case => ({ inputs: [], args });
const LINEAR: Tolerance = { ulps: 4, global: "result" };

/** The dtypes `asarray` infers from nested JS values: numbers give float32, booleans bool, bigints int64. */
const NATURAL = [["float32"], ["bool"], ["int64"]] as const;

differential("creation: asarray, toGpu, linspace, eye, identity, tri, *Like, meshgrid, triu, tril and full", [
  {
    op: "asarray",
    forms: fn,
    dtypes: [...NATURAL, ...lone],
    make: (rng, [d]) => {
      const data = nested(rng, d!, shapeArg(rng));
      return noInputs(NATURAL.some(([n]) => n === d) && rng.chance(0.7) ? [data] : [data, d]);
    },
  },
  {
    op: "toGpu",
    forms: fn,
    dtypes: lone,
    make: (rng, [d]) => {
      const shape = shapeArg(rng), flat = nested(rng, d!, [sizeOf(shape)]);
      return noInputs(NATURAL.some(([n]) => n === d) && rng.chance(0.5) ? [flat, shape] : [flat, shape, d]);
    },
  },
  {
    op: "linspace",
    forms: fn,
    tol: LINEAR,
    dtypes: [["float32"], ["float64"], ["int32"], ["int64"]],
    make: (rng, [d]) => {
      const v = () => rng.int(-50, 50) / rng.pick([1, 4, 3]);
      return noInputs([v(), v(), rng.int(0, 20), { endpoint: rng.chance(0.7), dtype: d }]);
    },
  },
  {
    op: "eye",
    forms: fn,
    dtypes: creationDtypes,
    make: (rng, [d]) =>
      noInputs([rng.int(0, 6), rng.chance(0.5) ? undefined : rng.int(0, 6), rng.int(-3, 3), d]),
  },
  { op: "identity", forms: fn, dtypes: creationDtypes, make: (rng, [d]) => noInputs([rng.int(0, 6), d]) },
  {
    op: "tri",
    forms: fn,
    dtypes: creationDtypes,
    make: (rng, [d]) =>
      noInputs([rng.int(0, 6), rng.chance(0.5) ? undefined : rng.int(0, 6), rng.int(-3, 3), d]),
  },
  ...["zerosLike", "onesLike", "emptyLike"].map((op): OpSpec => ({
    op,
    forms: fn,
    dtypes: [...lone, ...pairs],
    shapeOnly: op === "emptyLike",
    make: (rng, [d, to]) => ({
      inputs: [randomInput(rng, d!, shapeArg(rng))],
      args: to === undefined ? [new Arg(0)] : [new Arg(0), to],
    }),
  })),
  {
    op: "fullLike",
    forms: fn,
    dtypes: [...lone, ...pairs],
    make: (rng, [d, to]) => {
      const t = to ?? d!;
      const v = randomValue(rng, t === "bool" ? "uint8" : t, {
        range: t === "bool" ? [0, 1] : undefined,
        specials: false,
      });
      return {
        inputs: [randomInput(rng, d!, shapeArg(rng))],
        args: to === undefined ? [new Arg(0), v] : [new Arg(0), v, to],
      };
    },
  },
  {
    op: "meshgrid",
    forms: fn,
    dtypes: lone,
    make: (rng, [d]) => {
      const inputs = Array.from({ length: rng.int(1, 3) }, () => randomInput(rng, d!, [rng.int(0, 5)]));
      const options = rng.chance(0.3) ? [] : [{ indexing: rng.pick(["xy", "ij"]) }];
      return { inputs, args: [...inputs.map((_, k) => new Arg(k)), ...options] };
    },
  },
  ...["triu", "tril"].map((op): OpSpec => ({
    op,
    forms: fn,
    dtypes: lone,
    make: (rng, [d]) => ({
      inputs: [randomInput(rng, d!, randomShape(rng, { minRank: 2, maxRank: 4, maxSize: 100 }))],
      args: [new Arg(0), ...(rng.chance(0.3) ? [] : [rng.int(-3, 3)])],
    }),
  })),
  {
    op: "full",
    forms: fn,
    dtypes: lone,
    make: (rng, [d]) => {
      const integer = kind(d!) !== "float" && d !== "bool";
      let v: number | bigint = randomValue(rng, d === "bool" ? "uint8" : d!, {
        range: d === "bool" ? [0, 1] : undefined,
        specials: false,
      });
      if (integer && Math.abs(Number(v)) < 2 ** 31 && rng.chance(0.3)) {
        v = Number(v) + rng.pick([0.25, 0.5, 0.75]); // truncates
      }
      if (integer && rng.chance(0.05)) v = 2 ** 70; // out of range: RangeError
      return noInputs([shapeArg(rng), v, d]);
    },
  },
], { cases: 100 });

differential("creation functions that predate views: zeros, ones, full and arange", [
  { op: "zeros", forms: fn, dtypes: lone, make: (rng, [d]) => noInputs([shapeArg(rng), d]) },
  { op: "ones", forms: fn, dtypes: lone, make: (rng, [d]) => noInputs([shapeArg(rng), d]) },
  {
    op: "full",
    forms: fn,
    dtypes: lone,
    make: (rng, [d]) =>
      noInputs([
        shapeArg(rng),
        randomValue(rng, d === "bool" ? "uint8" : d!, { range: d === "bool" ? [0, 1] : [-100, 100] }),
        d,
      ]),
  },
  {
    op: "arange",
    forms: fn,
    tol: LINEAR,
    dtypes: lone.filter(([d]) => d !== "bool"),
    make: (rng, [d]) => {
      if (rng.chance(0.2)) return noInputs([rng.int(0, 30)]);
      const int = kind(d!) !== "float", unsigned = kind(d!) === "uint";
      const start = int ? rng.int(unsigned ? 0 : -20, 20) : rng.int(-80, 80) / 8;
      const step = int
        ? rng.pick(unsigned ? [1, 2, 3] : [1, 2, 3, -1, -2])
        : rng.pick([1, 0.5, 0.25, -1, -0.5, 3]);
      const stop = start + step * rng.int(-2, 30) + (int ? 0 : rng.pick([0, 0.1]));
      return noInputs([start, stop, step, d]);
    },
  },
], { cases: 20 });
