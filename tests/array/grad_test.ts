import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { randomArray, randomProgram, rng, runProgram } from "./_grad_programs.ts";

/** How many random programs (CUDENO_GRAD_CASES raises it for long runs). */
const CASES = Number(Deno.env.get("CUDENO_GRAD_CASES") ?? 1000);

const host = (a: ga.GPUArray) => Array.from(a.get() as Float64Array);
const dotHost = (a: readonly number[], b: readonly number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

function assertNear(got: number, want: number, tol: number, what: string): void {
  assert.ok(
    Math.abs(got - want) <= tol * (1 + Math.abs(want)),
    `${what}: got ${got}, want ${want} (difference ${Math.abs(got - want)})`,
  );
}

eachBackend("grad() of random programs matches central finite differences in float64", () => {
  const random = rng(20261204);
  for (let c = 0; c < CASES; c++) {
    const program = randomProgram(random, 1 + Math.floor(random() * 5));
    const [sx, sy] = program.shapes;
    const x = randomArray(sx!, random), y = randomArray(sy!, random);
    const out = runProgram(program, [x, y]);
    const weights = randomArray(out.shape, random);
    const loss = (x: ga.GPUArray, y: ga.GPUArray) => ga.sum(runProgram(program, [x, y]).mul(weights));
    const [gx, gy] = ga.grad(loss, { argnums: [0, 1] })(x, y);
    assert.deepEqual(gx.shape, x.shape, program.text);
    assert.deepEqual(gy.shape, y.shape, program.text);
    // The directional derivative along a random direction, both ways.
    const vx = randomArray(sx!, random), vy = randomArray(sy!, random);
    const h = 1e-6;
    const at = (t: number) => {
      const a = x.add(vx.mul(t)), b = y.add(vy.mul(t));
      const value = ga.sum(runProgram(program, [a, b]).mul(weights)) as unknown as number;
      return Number(value);
    };
    const fd = (at(h) - at(-h)) / (2 * h);
    const analytic = dotHost(host(gx), host(vx)) + dotHost(host(gy), host(vy));
    assertNear(analytic, fd, 1e-5, `case ${c}: ${program.text}`);
  }
});

eachBackend("jvp() and vjp() of random programs agree: <u, J v> = <Jᵀ u, v>", () => {
  const random = rng(7);
  for (let c = 0; c < CASES / 4; c++) {
    const program = randomProgram(random, 1 + Math.floor(random() * 4));
    const [sx, sy] = program.shapes;
    const x = randomArray(sx!, random), y = randomArray(sy!, random);
    const vx = randomArray(sx!, random), vy = randomArray(sy!, random);
    const f = (x: ga.GPUArray, y: ga.GPUArray) => runProgram(program, [x, y]);
    const [out, jv] = ga.jvp(f, [x, y], [vx, vy]);
    const u = randomArray(out.shape, random);
    const [, pullback] = ga.vjp(f, x, y);
    const [gx, gy] = pullback(u) as [ga.GPUArray, ga.GPUArray];
    pullback.free();
    const left = dotHost(host(u), host(jv));
    const right = dotHost(host(gx), host(vx)) + dotHost(host(gy), host(vy));
    assertNear(left, right, 1e-9, `case ${c}: ${program.text}`);
  }
});

eachBackend("grad() of grad() gives the second derivative: d²/dx² sum(x³) = 6x", () => {
  const x = ga.asarray([1, -2, 0.5], "float64");
  const d1 = (x: ga.GPUArray) => ga.grad((y: ga.GPUArray) => ga.sum(y.mul(y).mul(y)))(x);
  const d2 = ga.grad((x: ga.GPUArray) => ga.sum(d1(x)))(x);
  assert.deepEqual(host(d2), [6, -12, 3]);
  // Through a reduction, a broadcast and a matrix product: f = sum((A x)²), ∇²f·1 = 2 AᵀA 1.
  const a = [[1, 2], [3, -1], [0.5, 4]];
  const A = ga.asarray(a, "float64");
  const hv = ga.grad((x: ga.GPUArray) =>
    ga.sum(ga.grad((z: ga.GPUArray) => ga.sum(ga.square(ga.matmul(A, z))))(x))
  )(ga.asarray([0.3, -0.7], "float64"));
  const ata1 = [0, 1].map((j) => 2 * a.reduce((s, row) => s + row[j]! * (row[0]! + row[1]!), 0));
  host(hv).forEach((v, j) => assertNear(v, ata1[j]!, 1e-12, `Hessian-vector product [${j}]`));
});

eachBackend("valueAndGrad() takes argnums and trees, and returns aux as it is", () => {
  const params = { w: ga.asarray([[1, 2], [3, 4]], "float64"), b: [ga.asarray([0.5, -0.5], "float64")] };
  const x = ga.asarray([[1, 0], [2, 1], [0, 3]], "float64");
  const loss = (p: typeof params, x: ga.GPUArray) => {
    const y = ga.matmul(x, p.w).add(p.b[0]!);
    return [ga.mean(ga.square(y)), { rows: y.shape[0] }] as const;
  };
  const [[value, aux], grads] = ga.valueAndGrad(loss, { hasAux: true })(params, x);
  // Host reference: y = x w + b, L = mean(y²), dL/dw = xᵀ (2y/n), dL/db = sum(2y/n).
  const xs = [[1, 0], [2, 1], [0, 3]], w = [[1, 2], [3, 4]], b = [0.5, -0.5];
  const y = xs.map((r) => [0, 1].map((j) => r[0]! * w[0]![j]! + r[1]! * w[1]![j]! + b[j]!));
  const n = 6;
  assertNear(Number(value.get()[0]), y.flat().reduce((s, v) => s + v * v, 0) / n, 1e-12, "value");
  assert.deepEqual(aux, { rows: 3 });
  const dw = [0, 1].flatMap((i) =>
    [0, 1].map((j) => xs.reduce((s, r, k) => s + r[i]! * 2 * y[k]![j]! / n, 0))
  );
  host(grads.w).forEach((v, i) => assertNear(v, dw[i]!, 1e-12, `dw[${i}]`));
  const db = [0, 1].map((j) => y.reduce((s, r) => s + 2 * r[j]! / n, 0));
  host(grads.b[0]!).forEach((v, i) => assertNear(v, db[i]!, 1e-12, `db[${i}]`));
  // argnums as a list: one gradient per argument.
  const [dp, dx] = ga.grad((p: typeof params, x: ga.GPUArray) => loss(p, x)[0], { argnums: [0, 1] })(
    params,
    x,
  );
  assert.deepEqual(dp.w.shape, [2, 2]);
  assert.deepEqual(dx.shape, [3, 2]);
});

eachBackend("customVjp() uses its own rule and stopGradient() blocks the flow", () => {
  const x = ga.asarray([0.1, 3], "float64");
  const f = ga.customVjp(
    (x: ga.GPUArray) => x.mul(x),
    (x: ga.GPUArray) => [x.mul(x), x] as [ga.GPUArray, ga.GPUArray],
    (x: ga.GPUArray, g: ga.GPUArray) => [ga.clip(g.mul(x).mul(2), -1, 1)],
  );
  assert.deepEqual(host(ga.grad((x: ga.GPUArray) => ga.sum(f(x)))(x)), [0.2, 1]);
  const dx = ga.grad((x: ga.GPUArray) => ga.sum(x.mul(ga.stopGradient(x))))(x);
  assert.deepEqual(host(dx), [0.1, 3]);
});

eachBackend("gradients of integer results and unused arguments are zeros", () => {
  const x = ga.asarray([1.5, -2], "float64"), k = ga.asarray([1, 2], "int32");
  const [dx, dk] = ga.grad((x: ga.GPUArray, k: ga.GPUArray) => ga.sum(x.floor().mul(k)), { argnums: [0, 1] })(
    x,
    k,
  );
  assert.deepEqual(host(dx), [0, 0]);
  assert.deepEqual(Array.from(dk.get() as Int32Array), [0, 0]);
  // astype between floats passes the gradient through, converted.
  const da = ga.grad((x: ga.GPUArray) => ga.sum(x.astype("float32").mul(3)))(x);
  assert.equal(da.dtype, "float64");
  assert.deepEqual(host(da), [3, 3]);
});

eachBackend("grad() refuses a result of more than one element, naming vjp, and in-place writes", () => {
  const x = ga.asarray([1, 2], "float64");
  assert.throws(() => ga.grad((x: ga.GPUArray) => x.mul(2))(x), /shape \[2\].*ga\.vjp/);
  assert.throws(
    () => ga.grad((x: ga.GPUArray) => ga.sum(ga.assign(ga.zeros([2], "float64"), x)))(x),
    /in place/,
  );
  assert.throws(
    () => ga.grad((x: ga.GPUArray) => ga.sum(x.digamma()))(x),
    /digamma: it has no gradient rule/,
  );
  assert.throws(() => ga.grad((x: ga.GPUArray) => ga.sum(x), { argnums: 3 })(x), /argnums 3/);
});

eachBackend("grad() frees the arrays its function made and did not return", () => {
  const x = ga.asarray([1, 2, 3], "float64");
  const made: ga.GPUArray[] = [];
  const dx = ga.grad((x: ga.GPUArray) => {
    const y = x.exp();
    made.push(y);
    return ga.sum(y.mul(2));
  })(x);
  assert.ok(made[0]!.freed, "the intermediate exp(x) is freed when grad returns");
  assert.ok(!x.freed && !dx.freed);
  host(dx).forEach((v, i) => assertNear(v, 2 * Math.exp(i + 1), 1e-12, `dx[${i}]`));
});

eachBackend("the gradient of a fused function equals the eager function's", () => {
  const f = (x: ga.GPUArray, y: ga.GPUArray) => ga.sum(ga.exp(x.mul(2).add(y)).mul(0.5));
  const fused = ga.fuse(f);
  const random = rng(3);
  const x = randomArray([5, 3], random), y = randomArray([3], random);
  const [ex, ey] = ga.grad(f, { argnums: [0, 1] })(x, y);
  const [fx, fy] = ga.grad(fused as typeof f, { argnums: [0, 1] })(x, y);
  assert.deepEqual(host(fx), host(ex));
  assert.deepEqual(host(fy), host(ey));
  // Host reference: d/dx = exp(2x + y), d/dy = 0.5 Σ_rows exp(2x + y).
  const xs = host(x), ys = host(y);
  xs.forEach((v, i) => assertNear(host(ex)[i]!, Math.exp(2 * v + ys[i % 3]!), 1e-12, `dx[${i}]`));
});
