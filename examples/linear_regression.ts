/**
 * Linear regression by gradient descent with `ga.valueAndGrad`: data from a known line plus noise,
 * a model `x·w + b`, the mean squared error as the loss, and 200 steps of plain gradient descent. On
 * CUDA where there is a GPU, on OpenCL elsewhere. The fitted weights are checked against the closed-form
 * least-squares solution computed on the host in float64.
 *
 *   deno run --allow-ffi --allow-env --allow-read --allow-write examples/linear_regression.ts
 */
import * as ga from "../src/array/mod.ts";

const n = 1000, features = 3;
const trueW = [2, -3, 0.5], trueB = 4;
const x = ga.random.normal([n, features], { seed: 1 }).astype("float64");
const noise = ga.random.normal([n], { seed: 2 }).astype("float64").mul(0.1);
const y = ga.matmul(x, ga.asarray(trueW, "float64")).add(trueB).add(noise);

type Params = { w: ga.GPUArray; b: ga.GPUArray };
const loss = (p: Params, x: ga.GPUArray, y: ga.GPUArray) =>
  ga.mean(ga.square(ga.matmul(x, p.w).add(p.b).sub(y)));
const step = ga.valueAndGrad(loss);

let params: Params = { w: ga.zeros([features], "float64"), b: ga.zeros([], "float64") };
const rate = 0.1;
console.log(`linear regression on ${ga.backendDevice()}`);
for (let i = 0; i <= 200; i++) {
  const [value, grads] = step(params, x, y);
  if (i % 50 === 0) console.log(`step ${i}: loss ${Number(value.get()[0]).toFixed(6)}`);
  const next = { w: params.w.sub(grads.w.mul(rate)), b: params.b.sub(grads.b.mul(rate)) };
  for (const a of [value, grads.w, grads.b, params.w, params.b]) a.free();
  params = next;
}

// The closed-form least-squares fit on the host: solve the normal equations [X 1]ᵀ[X 1] β = [X 1]ᵀ y.
const xs = x.get() as Float64Array, ys = y.get() as Float64Array, k = features + 1;
const ata = Array.from({ length: k }, () => new Array<number>(k).fill(0)), aty = new Array<number>(k).fill(0);
for (let r = 0; r < n; r++) {
  const row = [...xs.subarray(r * features, (r + 1) * features), 1];
  for (let i = 0; i < k; i++) {
    aty[i]! += row[i]! * ys[r]!;
    for (let j = 0; j < k; j++) ata[i]![j]! += row[i]! * row[j]!;
  }
}
for (let i = 0; i < k; i++) { // Gauss–Jordan elimination (the matrix is symmetric positive definite)
  for (let r = 0; r < k; r++) {
    if (r === i) continue;
    const f = ata[r]![i]! / ata[i]![i]!;
    for (let c = 0; c < k; c++) ata[r]![c]! -= f * ata[i]![c]!;
    aty[r]! -= f * aty[i]!;
  }
}
const exact = aty.map((v, i) => v / ata[i]![i]!);
const fitted = [...(params.w.get() as Float64Array), (params.b.get() as Float64Array)[0]!];
const worst = Math.max(...fitted.map((v, i) => Math.abs(v - exact[i]!)));
console.log(`fitted w = [${fitted.slice(0, 3).map((v) => v.toFixed(4))}], b = ${fitted[3]!.toFixed(4)}`);
console.log(`largest difference from the least-squares solution: ${worst.toExponential(2)}`);
if (worst > 1e-6) throw new Error("gradient descent did not reach the least-squares solution");
