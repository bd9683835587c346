/**
 * Differential tests of the elementwise operations (array-api.md "Elementwise"): random shapes,
 * views, broadcasts, dtypes and weak scalars, against the host reference.
 */

import type { DType } from "../../src/kernel/dtype.ts";
import type { Ref } from "./_reference.ts";
import { bits, cast, intRange, kind, resultType, type Scalar } from "./_reference_dtype.ts";
import * as ufunc from "./_reference_ufunc.ts";
import {
  ALL_DTYPES,
  broadcastable,
  type Input,
  randomInput,
  randomShape,
  randomValue,
  refInput,
  type Rng,
  type ValueOptions,
} from "./_cases.ts";
import {
  Arg,
  ARITH,
  type Case,
  type Context,
  differential,
  EXACT,
  MATH,
  type OpSpec,
  type Tolerance,
} from "./_differential.ts";

const WRITABLE = ["slice", "slice", "transpose", "flip", "expandDims"];
const INTS = ALL_DTYPES.filter((d) => kind(d) === "int" || kind(d) === "uint");
const same = (ds: readonly DType[]) => ds.map((d) => [d, d]);
const pairs = (ds: readonly DType[]) => ds.flatMap((a) => ds.map((b) => [a, b]));
const lone = (ds: readonly DType[]) => ds.map((d) => [d]);

/** Value options for the operand on `side` (0 left, 1 right) of an op computing in `t`. */
type Sides = (side: number, t: DType) => ValueOptions;
const anyValues: Sides = () => ({});

/** A weak JS scalar to combine with an array of `d`: a small in-range integer (a bigint for 64-bit), or a fraction. */
function weakScalar(rng: Rng, d: DType, options: ValueOptions): Scalar {
  if (kind(d) !== "float" && rng.chance(0.3) && options.range === undefined) return rng.int(-40, 40) + 0.5;
  const small: ValueOptions = kind(d) === "float" || bits(d) < 64 || options.range !== undefined
    ? options
    : { ...options, range: kind(d) === "uint" ? [0, 2 ** 32] : [-(2 ** 31), 2 ** 31] };
  const v = randomValue(rng, kind(d) === "bool" ? "int8" : d, { ...small, specials: false, extremes: false });
  return typeof v === "bigint" && rng.chance(0.5) ? Number(v) : v;
}

/**
 * Now and then a `{ out }` argument: an array of the result's dtype and shape, seen through a
 * writable random view (or contiguous), that the case then checks instead of the result.
 */
function withOut(rng: Rng, op: string, c: Case, ctx: Context): Case {
  if (!rng.chance(0.15)) return c;
  let want: Ref;
  try {
    const views = c.inputs.map((i) => refInput(i).view);
    want = (ufunc as unknown as Record<string, (...a: unknown[]) => Ref>)[op]!(
      ...c.args.map((a) => (a instanceof Arg ? views[a.index] : a)),
    );
  } catch {
    return c; // an error case stays one
  }
  const out = randomInput(rng, want.dtype, [...want.shape], { view: !ctx.contiguous, kinds: WRITABLE });
  return {
    inputs: [...c.inputs, out],
    args: [...c.args, { out: new Arg(c.inputs.length) }],
    check: c.inputs.length,
  };
}

/** Two operands broadcasting to a random shape (or the same shape when contiguous), or one and a scalar. */
function binaryCase(op: string, sides: Sides, out: boolean) {
  return (rng: Rng, dtypes: readonly DType[], ctx: Context): Case => {
    const shape = randomShape(rng, { maxSize: 200 });
    const t = dtypes.length === 2 ? resultType(dtypes[0]!, dtypes[1]!) : dtypes[0]!;
    const mismatch = !ctx.contiguous && rng.chance(0.03) && shape.some((d) => d > 1);
    const shapeFor = (k: number) => {
      if (ctx.contiguous) return shape;
      if (mismatch && k === 1) return shape.map((d) => (d > 1 ? d + 1 : d));
      return mismatch ? shape : broadcastable(rng, shape);
    };
    const input = (d: DType, k: number, side: number) =>
      randomInput(rng, d, shapeFor(k), { view: !ctx.contiguous, ...sides(side, t) });
    if (dtypes.length === 2) {
      const c = {
        inputs: [input(dtypes[0]!, 0, 0), input(dtypes[1]!, 1, 1)],
        args: [new Arg(0), new Arg(1)],
      };
      return out ? withOut(rng, op, c, ctx) : c;
    }
    const left = rng.chance(0.7);
    const x = input(dtypes[0]!, 0, left ? 0 : 1), s = weakScalar(rng, dtypes[0]!, sides(left ? 1 : 0, t));
    const c = { inputs: [x], args: left ? [new Arg(0), s] : [s, new Arg(0)] };
    return out ? withOut(rng, op, c, ctx) : c;
  };
}

function unaryCase(op: string, options: (d: DType) => ValueOptions = () => ({})) {
  return (rng: Rng, dtypes: readonly DType[], ctx: Context): Case => {
    const shape = randomShape(rng, { maxSize: 200 });
    const x = randomInput(rng, dtypes[0]!, shape, { view: !ctx.contiguous, ...options(dtypes[0]!) });
    return withOut(rng, op, { inputs: [x], args: [new Arg(0)] }, ctx);
  };
}

const intCompute = (t: DType) => kind(t) !== "float";
/** Integer division without zero divisors or extremes (the minimum over -1 overflows): see the dedicated test. */
const divisor: Sides = (side, t) => (intCompute(t) ? { nonzero: side === 1, extremes: false } : {});
const exponent: Sides = (side, t) => (side === 1 && intCompute(t) ? { range: [0, 6] } : {});
const shift: Sides = (side, t) => (side === 1 ? { range: [0, bits(t === "bool" ? "int8" : t) + 1] } : {});

function binary(
  op: string,
  dtypes: readonly (readonly DType[])[],
  tol: Tolerance,
  sides = anyValues,
  forms?: OpSpec["forms"],
  out = true,
): OpSpec {
  return { op, dtypes, tol, make: binaryCase(op, sides, out), forms };
}
function unary(
  op: string,
  dtypes: readonly DType[],
  tol: Tolerance,
  options?: (d: DType) => ValueOptions,
  forms?: OpSpec["forms"],
): OpSpec {
  return { op, dtypes: lone(dtypes), tol, make: unaryCase(op, options), forms };
}

const ALL = [...pairs(ALL_DTYPES), ...lone(ALL_DTYPES)];
const NO_BOOL = ALL.filter((t) => t.every((d) => d !== "bool"));
const INTEGRAL = [...pairs([...INTS, "bool"]), ...lone([...INTS, "bool"])];
const FLOATS = ALL_DTYPES.filter((d) => kind(d) === "float");
/** Integer and bool pairs that promote to an integer (int64 with uint64 gives float64: no bitwise ops). */
const BITWISE = INTEGRAL.filter((t) => t.length === 1 || resultType(t[0]!, t[1]!) !== "float64");

// ---- what exists before views: contiguous, equal shapes ------------------------------------------------------

const TODAY_DIV: DType[] = [...FLOATS, "int32", "uint32", "int64", "uint64"]; // 8/16-bit ints give float32 today, not float64
differential("elementwise ops that predate views (contiguous, equal shapes)", [
  ...["add", "mul", "maximum", "minimum"].map((op) =>
    binary(op, [...same(ALL_DTYPES), ...lone(ALL_DTYPES)], ARITH)
  ),
  binary("sub", [
    ...same(ALL_DTYPES.filter((d) => d !== "bool")),
    ...lone(ALL_DTYPES.filter((d) => d !== "bool")),
  ], ARITH),
  binary("div", [...same(TODAY_DIV), ...lone(TODAY_DIV)], ARITH),
  ...["eq", "ne", "lt", "le", "gt", "ge"].map((op) =>
    binary(op, same(ALL_DTYPES), EXACT, anyValues, ["method"], false) // no out: these methods take none yet
  ),
  ...["exp", "log", "sqrt", "sin", "cos", "tan", "tanh"].map((op) =>
    unary(op, ALL_DTYPES, MATH, undefined, ["function"])
  ),
  unary("neg", ALL_DTYPES.filter((d) => d !== "bool"), EXACT),
  unary("abs", ALL_DTYPES, EXACT),
  {
    op: "astype",
    forms: ["method"],
    dtypes: pairs(ALL_DTYPES),
    tol: ARITH,
    make: (rng, [from, to], ctx) => astypeCase(rng, from!, to!, ctx),
  },
], { cases: 150, contiguous: true });

// ---- the whole contract ------------------------------------------------------------------------------------

differential("elementwise arithmetic ufuncs on broadcast views", [
  binary("add", ALL, ARITH),
  binary("sub", NO_BOOL, ARITH),
  binary("mul", ALL, ARITH),
  binary("div", ALL, ARITH),
  binary("pow", ALL, MATH, exponent),
  binary("maximum", ALL, EXACT),
  binary("minimum", ALL, EXACT),
  binary("fmax", ALL, EXACT),
  binary("fmin", ALL, EXACT),
  binary("arctan2", ALL, MATH),
  binary("hypot", ALL, MATH),
  binary("floorDivide", ALL, ARITH, divisor),
  binary("mod", ALL, ARITH, divisor),
], { cases: 300 });

differential("elementwise comparison, logical and bitwise ufuncs on broadcast views", [
  ...["eq", "ne", "lt", "le", "gt", "ge", "logicalAnd", "logicalOr", "logicalXor"].map((op) =>
    binary(op, ALL, EXACT)
  ),
  ...["bitwiseAnd", "bitwiseOr", "bitwiseXor"].map((op) => binary(op, BITWISE, EXACT)),
  ...["leftShift", "rightShift"].map((op) =>
    binary(
      op,
      BITWISE,
      EXACT,
      shift,
    )
  ),
], { cases: 200 });

const NON_BOOL = ALL_DTYPES.filter((d) => d !== "bool");
differential("elementwise unary ufuncs on views", [
  unary("neg", NON_BOOL, EXACT),
  unary("abs", ALL_DTYPES, EXACT),
  unary("sign", NON_BOOL, EXACT),
  ...["floor", "ceil", "trunc", "round", "square", "isnan", "isinf", "isfinite", "logicalNot"].map((op) =>
    unary(op, ALL_DTYPES, EXACT)
  ),
  unary("reciprocal", ALL_DTYPES, ARITH, (d) => (kind(d) === "float" ? {} : { nonzero: true })),
  unary("invert", [...INTS, "bool"], EXACT),
  unary("sqrt", ALL_DTYPES, ARITH),
  ...[
    "exp",
    "log",
    "sin",
    "cos",
    "tan",
    "tanh",
    "log1p",
    "expm1",
    "log2",
    "log10",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
  ]
    .map((op) => unary(op, ALL_DTYPES, MATH)),
], { cases: 250 });

function astypeCase(rng: Rng, from: DType, to: DType, ctx: Context): Case {
  // Floats become integers only where the truncated value fits (C leaves the rest unspecified).
  const options: ValueOptions = kind(from) === "float" && kind(to) !== "float" && kind(to) !== "bool"
    ? { range: kind(to) === "uint" ? [-0.9, Math.min(255.9, Number.MAX_SAFE_INTEGER)] : [-128.9, 127.9] }
    : {};
  const shape = randomShape(rng, { maxSize: 200 });
  return {
    inputs: [randomInput(rng, from, shape, { view: !ctx.contiguous, ...options })],
    args: [new Arg(0), to],
  };
}

function whereCase(rng: Rng, dtypes: readonly DType[]): Case {
  const shape = randomShape(rng, { maxSize: 200 });
  const inputs: Input[] = dtypes.map((d) => randomInput(rng, d, broadcastable(rng, shape)));
  const scalar = () => (rng.chance(0.5) ? rng.int(-3, 3) : rng.int(-30, 30) + 0.25);
  const args = [0, 1, 2].map((k) => (k < inputs.length ? new Arg(k) : scalar()));
  return { inputs, args };
}

function clipCase(rng: Rng, dtypes: readonly DType[]): Case {
  const d = dtypes[0]!, shape = randomShape(rng, { maxSize: 200 });
  const bound = kind(d) === "uint" || d === "bool" ? [0, 9] as const : [-6, 6] as const;
  const a = randomInput(rng, d, shape);
  if (dtypes.length === 3) {
    const lo = randomInput(rng, d, broadcastable(rng, shape)),
      hi = randomInput(rng, d, broadcastable(rng, shape));
    return { inputs: [a, lo, hi], args: [new Arg(0), new Arg(1), new Arg(2)] };
  }
  const pick = () => randomValue(rng, d === "bool" ? "uint8" : d, { range: bound, specials: false });
  const lo: Scalar | null = rng.chance(0.2) ? null : pick();
  const hi: Scalar | null = lo !== null && rng.chance(0.25) ? null : pick();
  return { inputs: [a], args: [new Arg(0), lo, hi] };
}

differential("where, clip and astype on broadcast views", [
  {
    op: "where",
    forms: ["function"],
    dtypes: [
      ...ALL_DTYPES.flatMap((c) => ALL_DTYPES.map((x) => [c, x, x])),
      ...pairs(ALL_DTYPES).map(([c, x]) => [c!, x!]),
      ...lone(ALL_DTYPES),
    ],
    make: whereCase,
  },
  {
    op: "clip",
    forms: ["function"],
    dtypes: [...lone(NON_BOOL), ...NON_BOOL.map((d) => [d, d, d])],
    make: clipCase,
  },
  {
    op: "astype",
    forms: ["method"],
    dtypes: pairs(ALL_DTYPES),
    tol: ARITH,
    make: (rng, [from, to], ctx) => astypeCase(rng, from!, to!, ctx),
  },
], { cases: 100 });

/** Integer division at its edges: by zero (NumPy gives 0) and the minimum by -1 (it wraps). */
function divisionEdges(rng: Rng, [d]: readonly DType[]): Case {
  const [lo, hi] = intRange(d!);
  const signed = kind(d!) === "int";
  const a = [lo, lo, hi, 5n, 0n, 7n, hi].map((v) => cast(v, d!));
  const b = [signed ? -1n : 1n, 0n, 0n, 0n, 0n, signed ? -1n : 3n, signed ? -1n : 2n].map((v) => cast(v, d!));
  const order = rng.shuffle([...a.keys()]);
  return {
    inputs: [
      { dtype: d!, shape: [a.length], values: order.map((k) => a[k]!), steps: [] },
      { dtype: d!, shape: [b.length], values: order.map((k) => b[k]!), steps: [] },
    ],
    args: [new Arg(0), new Arg(1)],
  };
}

differential("floorDivide and mod of integers by zero and of the minimum by -1 (NumPy: 0, and wraparound)", [
  { op: "floorDivide", dtypes: lone(INTS), make: divisionEdges },
  { op: "mod", dtypes: lone(INTS), make: divisionEdges },
], { cases: 10 });
