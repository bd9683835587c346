/**
 * Random differentiable programs for the gradient tests: a program is a list of steps over float64
 * arrays, each an array operation chosen at random (elementwise, broadcasting, reductions with axes and
 * keepdims, views with steps, products, joins, gathers, scans, sorting, padding), applied to values
 * computed so far. The same program runs on any inputs, so it can be differentiated and evaluated
 * again at shifted points for finite differences.
 */

import * as ga from "../../src/array/mod.ts";

/** A seeded generator of numbers in [0, 1) (mulberry32). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A step: its name (for messages) and what it computes from the values so far. */
interface Step {
  readonly name: string;
  readonly run: (values: ga.GPUArray[]) => ga.GPUArray;
}

/** A program: the input shapes, the steps, and a description. */
export interface Program {
  readonly shapes: readonly (readonly number[])[];
  readonly steps: readonly Step[];
  readonly text: string;
}

const size = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

/** A float64 array of `shape` with entries from `random` in [lo, hi). */
export function randomArray(shape: readonly number[], random: () => number, lo = -1, hi = 1): ga.GPUArray {
  const data = Float64Array.from({ length: size(shape) }, () => lo + (hi - lo) * random());
  return ga.toGpu(data).reshape([...shape]);
}

/** NumPy's broadcast of two shapes, or undefined where they do not broadcast. */
function broadcast(a: readonly number[], b: readonly number[]): number[] | undefined {
  const n = Math.max(a.length, b.length), out: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = a[a.length - n + i] ?? 1, y = b[b.length - n + i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) return undefined;
    out.push(Math.max(x, y));
  }
  return out;
}

const UNARY: readonly [string, (x: ga.GPUArray) => ga.GPUArray][] = [
  ["sin", (x) => x.sin()],
  ["cos", (x) => x.cos()],
  ["tanh", (x) => x.tanh()],
  ["exp(tanh)", (x) => x.tanh().exp()],
  ["arctan", (x) => x.arctan()],
  ["square", (x) => x.square()],
  ["erf", (x) => x.erf()],
  ["log1p(x²)", (x) => x.square().log1p()],
  ["sqrt(x²+1)", (x) => x.square().add(1).sqrt()],
  ["abs", (x) => x.abs()],
  ["expm1(tanh)", (x) => x.tanh().expm1()],
  ["sigmoid", (x) => x.neg().exp().add(1).reciprocal()],
  ["arcsinh", (x) => x.arcsinh()],
  ["sinh(x/2)", (x) => x.mul(0.5).sinh()],
  ["1.7x+0.3", (x) => x.mul(1.7).add(0.3)],
  ["2-x", (x) => ga.sub(2, x)],
  ["3/(x²+1)", (x) => ga.div(3, x.square().add(1))],
  ["clip", (x) => ga.clip(x, -0.5, 0.5)],
];

const BINARY: readonly [string, (x: ga.GPUArray, y: ga.GPUArray) => ga.GPUArray][] = [
  ["add", (x, y) => x.add(y)],
  ["sub", (x, y) => x.sub(y)],
  ["mul", (x, y) => x.mul(y)],
  ["div", (x, y) => x.div(y.square().add(1))],
  ["maximum", (x, y) => ga.maximum(x, y)],
  ["minimum", (x, y) => ga.minimum(x, y)],
  ["hypot", (x, y) => ga.hypot(x, y.add(2))],
  ["arctan2", (x, y) => ga.arctan2(x, y.add(2))],
  ["logaddexp", (x, y) => ga.logaddexp(x, y)],
  ["pow", (x, y) => ga.pow(x.square().add(1), y.mul(0.5))],
  ["where", (x, y) => ga.where(x.gt(y), x.mul(y), y.sin())],
];

const REDUCTIONS = ["sum", "mean", "max", "min", "prod", "var", "std", "logsumexp", "norm"] as const;

/** A random program of `length` steps over two inputs of random, broadcasting shapes. */
export function randomProgram(random: () => number, length: number): Program {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const int = (n: number) => Math.floor(random() * n);
  const rank = 1 + int(3);
  const x = Array.from({ length: rank }, () => 1 + int(4));
  // y broadcasts against x: some axes 1, maybe fewer leading axes.
  const y = x.slice(int(2)).map((d) => (random() < 0.3 ? 1 : d));
  const shapes: number[][] = [x, y];
  const steps: Step[] = [];
  const names: string[] = [];
  for (let k = 0; k < length; k++) {
    const i = int(shapes.length), s = shapes[i]!;
    const n = s.length;
    const axis = n > 0 ? int(n) : 0;
    let step: Step | undefined, shape: number[] | undefined;
    const kind = int(13);
    if (kind <= 2) {
      const [name, f] = pick(UNARY);
      step = { name: `${name}(v${i})`, run: (v) => f(v[i]!) };
      shape = s;
    } else if (kind <= 4) {
      const j = int(shapes.length), both = broadcast(s, shapes[j]!);
      if (both !== undefined) {
        const [name, f] = pick(BINARY);
        step = { name: `${name}(v${i}, v${j})`, run: (v) => f(v[i]!, v[j]!) };
        shape = both;
      }
    } else if (kind === 5 && n > 0) {
      const whole = random() < 0.2, keepdims = random() < 0.5;
      // var and std of one element have no derivative (0/0).
      const op = pick(
        REDUCTIONS.filter((r) => (r !== "var" && r !== "std") || (whole ? size(s) : s[axis]!) > 1),
      );
      step = {
        name: `${op}(v${i}, ${whole ? "all" : axis}${keepdims ? ", keepdims" : ""})`,
        run: (v) => {
          const a = op === "prod" ? v[i]!.tanh().add(1.5) : v[i]!;
          const f = ga[op] as (a: ga.GPUArray, ...args: unknown[]) => ga.GPUArray;
          // Over every axis: a 0-d array (outside grad a whole reduction gives a host number).
          if (whole) return keepdims ? f(a, { keepdims }) : f(a, { keepdims: true }).reshape([]);
          return op === "norm" ? f(a, null, axis, { keepdims }) : f(a, axis, { keepdims });
        },
      };
      shape = whole
        ? (keepdims ? s.map(() => 1) : [])
        : keepdims
        ? s.map((d, a) => (a === axis ? 1 : d))
        : s.filter((_, a) => a !== axis);
    } else if (kind === 6 && n > 0) {
      const view = int(7);
      if (view === 0) {
        const perm = s.map((_, a) => a).sort(() => random() - 0.5);
        step = { name: `transpose(v${i}, [${perm}])`, run: (v) => ga.transpose(v[i]!, perm) };
        shape = perm.map((a) => s[a]!);
      } else if (view === 1) {
        step = { name: `v${i}.reshape(-1)`, run: (v) => v[i]!.transpose().reshape(-1) };
        shape = [size(s)];
      } else if (view === 2 && s[axis]! > 1) {
        const spec = Array.from({ length: n }, (_, a) => (a === axis ? [null, null, -2] as const : null));
        step = { name: `v${i}[axis ${axis} ::-2]`, run: (v) => ga.slice(v[i]!, ...spec) };
        shape = s.map((d, a) => (a === axis ? Math.ceil(d / 2) : d));
      } else if (view === 3) {
        step = { name: `flip(v${i}, ${axis})`, run: (v) => ga.flip(v[i]!, axis) };
        shape = s;
      } else if (view === 4) {
        step = { name: `broadcastTo(v${i})`, run: (v) => ga.broadcastTo(v[i]!, [2, ...s]).mul(1) };
        shape = [2, ...s];
      } else if (view === 5 && n >= 2) {
        step = { name: `diagonal(v${i})`, run: (v) => ga.diagonal(v[i]!) };
        shape = [...s.slice(2), Math.min(s[0]!, s[1]!)];
      } else if (view === 6) {
        step = { name: `squeeze(expandDims(v${i}))`, run: (v) => ga.expandDims(v[i]!, 0).squeeze(0).mul(2) };
        shape = s;
      }
    } else if (kind === 7 && n > 0) {
      const k = s[n - 1]!, cols = 1 + int(3);
      const c = Float64Array.from({ length: k * cols }, () => random() - 0.5);
      if (random() < 0.5 && n === 2) {
        step = { name: `v${i} @ v${i}.T`, run: (v) => ga.matmul(v[i]!, v[i]!.T) };
        shape = [s[0]!, s[0]!];
      } else {
        step = {
          name: `matmul(v${i}, C[${k}, ${cols}])`,
          run: (v) => ga.matmul(v[i]!, ga.toGpu(c).reshape([k, cols])),
        };
        shape = [...s.slice(0, -1), cols];
      }
    } else if (kind === 8 && n > 0) {
      const which = int(4);
      const names = ["softmax", "logSoftmax", "cumsum", "cumprod"] as const;
      const op = names[which]!;
      step = {
        name: `${op}(v${i}, ${axis})`,
        run: (
          v,
        ) => (op === "cumprod"
          ? ga.cumprod(v[i]!.tanh().add(1.5), axis)
          : (ga[op] as (a: ga.GPUArray, axis: number) => ga.GPUArray)(v[i]!, axis)),
      };
      shape = s;
    } else if (kind === 9 && n > 0) {
      if (random() < 0.5) {
        step = {
          name: `concatenate([v${i}, sin v${i}], ${axis})`,
          run: (v) => ga.concatenate([v[i]!, v[i]!.sin()], axis),
        };
        shape = s.map((d, a) => (a === axis ? 2 * d : d));
      } else {
        step = {
          name: `stack([v${i}, v${i}²], ${axis})`,
          run: (v) => ga.stack([v[i]!, v[i]!.square()], axis),
        };
        shape = [...s.slice(0, axis), 2, ...s.slice(axis)];
      }
    } else if (kind === 10 && n > 0) {
      const m = 1 + int(4), extent = s[axis]!;
      const idx = Array.from({ length: m }, () => int(extent) - (random() < 0.3 ? extent : 0));
      step = { name: `take(v${i}, [${idx}], ${axis})`, run: (v) => ga.take(v[i]!, idx, axis) };
      shape = [...s.slice(0, axis), m, ...s.slice(axis + 1)];
    } else if (kind === 11 && n > 0) {
      step = { name: `sort(v${i}, ${axis})`, run: (v) => ga.sort(v[i]!, axis) };
      shape = s;
    } else if (kind === 12 && n > 0) {
      const what = int(4);
      if (what === 0) {
        step = { name: `pad(v${i}, 1)`, run: (v) => ga.pad(v[i]!, 1) };
        shape = s.map((d) => d + 2);
      } else if (what === 1) {
        step = { name: `repeat(v${i}, 2, ${axis})`, run: (v) => ga.repeat(v[i]!, 2, axis) };
        shape = s.map((d, a) => (a === axis ? 2 * d : d));
      } else if (what === 2) {
        step = { name: `tile(v${i}, 2)`, run: (v) => ga.tile(v[i]!, 2) };
        shape = s.map((d, a) => (a === n - 1 ? 2 * d : d));
      } else if (s[axis]! >= 2) {
        step = { name: `split(v${i}, [1], ${axis})[1]`, run: (v) => ga.split(v[i]!, [1], axis)[1]! };
        shape = s.map((d, a) => (a === axis ? d - 1 : d));
      }
    }
    if (step === undefined || shape === undefined) {
      k--;
      continue;
    }
    steps.push(step);
    shapes.push(shape);
    names.push(`v${shapes.length - 1} = ${step.name}`);
  }
  return { shapes: [x, y], steps, text: `x: [${x}], y: [${y}]; ${names.join("; ")}` };
}

/** Runs `program` on `inputs`: the last step's value. */
export function runProgram(program: Program, inputs: readonly ga.GPUArray[]): ga.GPUArray {
  const values = [...inputs];
  for (const step of program.steps) values.push(step.run(values));
  return values.at(-1)!;
}
