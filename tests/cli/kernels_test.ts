/**
 * Every file in kernels/, run through the command line on its backend (the .cl side on OpenCL, which
 * CI has through PoCL; the .cu side on CUDA, where there is a GPU), with results checked against
 * references computed here on the host.
 */

import assert from "node:assert/strict";
import { readNpy, writeNpy } from "../../src/kernel/npy.ts";
import { cudaTest, openclTest } from "../_backends.ts";
import { cudeno, decodePng, tempDir } from "./_cli.ts";

const BACKENDS = [
  { ext: "cl", test: openclTest },
  { ext: "cu", test: cudaTest },
] as const;

/** Uniform numbers in [0, 1) from a small LCG, rounded to float32, so inputs are the same on every run. */
function floats(count: number, seed: number): Float32Array {
  let state = seed >>> 0;
  return Float32Array.from({ length: count }, () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  });
}

function save(dir: string, name: string, data: Float32Array, shape: number[] = [data.length]): string {
  const path = `${dir}/${name}.npy`;
  Deno.writeFileSync(path, writeNpy(data, shape));
  return path;
}

function load(path: string): { data: Float32Array; shape: number[] } {
  const array = readNpy(Deno.readFileSync(path), path);
  assert.equal(array.dtype, "float32");
  return { data: array.data as Float32Array, shape: array.shape };
}

async function runOk(args: string[]): Promise<string> {
  const result = await cudeno(args);
  assert.equal(result.code, 0, `cudeno ${args.join(" ")} failed:\n${result.stderr}`);
  return result.stdout;
}

function assertClose(
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  relative: number,
  absolute = 0,
): void {
  assert.equal(actual.length, expected.length);
  for (let i = 0; i < expected.length; i++) {
    const tolerance = absolute + relative * Math.abs(expected[i]!);
    if (!(Math.abs(actual[i]! - expected[i]!) <= tolerance)) {
      assert.fail(`element ${i}: got ${actual[i]}, expected ${expected[i]} (within ${tolerance})`);
    }
  }
}

for (const { ext, test } of BACKENDS) {
  test(`kernels/saxpy.${ext} computes y = a*x + y like a host loop`, async () => {
    using tmp = tempDir();
    const dir = tmp.path;
    const n = 1000; // not a multiple of the block, so the bounds check matters
    const x = floats(n, 1);
    const y = floats(n, 2);
    const out = `${dir}/out.npy`;
    await runOk([
      "run",
      `kernels/saxpy.${ext}`,
      `--arg`,
      `n=${n}`,
      "--arg",
      "a=3",
      "--arg",
      `x=@${save(dir, "x", x)}`,
      "--arg",
      `y=@${save(dir, "y", y)}`,
      "--out",
      `y=${out}`,
    ]);
    const expected = Float32Array.from(y, (yi, i) => Math.fround(3 * x[i]!) + yi);
    const result = load(out);
    assert.deepEqual(result.shape, [n]);
    assertClose(result.data, expected, 1e-6); // a fused multiply-add may round once instead of twice
  });

  test(`kernels/vector_add.${ext} adds two vectors exactly`, async () => {
    using tmp = tempDir();
    const dir = tmp.path;
    const n = 777;
    const a = floats(n, 3);
    const b = floats(n, 4);
    const out = `${dir}/c.npy`;
    await runOk([
      "run",
      `kernels/vector_add.${ext}`,
      "--arg",
      `n=${n}`,
      "--arg",
      `a=@${save(dir, "a", a)}`,
      "--arg",
      `b=@${save(dir, "b", b)}`,
      "--out",
      `c=${out}`,
    ]);
    assert.deepEqual(Array.from(load(out).data), Array.from(a, (ai, i) => Math.fround(ai + b[i]!)));
  });

  test(`kernels/matmul.${ext} multiplies matrices whose sizes are not multiples of the tile`, async () => {
    using tmp = tempDir();
    const dir = tmp.path;
    const [M, N, K] = [40, 24, 33];
    const A = floats(M * K, 5);
    const B = floats(K * N, 6);
    const out = `${dir}/C.npy`;
    await runOk([
      "run",
      `kernels/matmul.${ext}`,
      ...["--arg", `M=${M}`, "--arg", `N=${N}`, "--arg", `K=${K}`],
      ...["--arg", `A=@${save(dir, "A", A, [M, K])}`, "--arg", `B=@${save(dir, "B", B, [K, N])}`],
      ...["--out", `C=${out}`],
    ]);
    const expected = new Float64Array(M * N);
    for (let i = 0; i < M; i++) {
      for (let j = 0; j < N; j++) {
        let sum = 0;
        for (let k = 0; k < K; k++) sum += A[i * K + k]! * B[k * N + j]!;
        expected[i * N + j] = sum;
      }
    }
    const C = load(out);
    assert.deepEqual(C.shape, [M, N], "C keeps the 2-D shape of zeros(M,N)");
    assertClose(C.data, expected, 1e-5);
  });

  test(`kernels/reduce.${ext} sums a vector, the same total on every repeat`, async () => {
    using tmp = tempDir();
    const dir = tmp.path;
    const n = 100_000;
    const x = floats(n, 7);
    const out = `${dir}/total.npy`;
    const stdout = await runOk([
      "run",
      `kernels/reduce.${ext}`,
      "--arg",
      `n=${n}`,
      "--arg",
      `x=@${save(dir, "x", x)}`,
      "--out",
      `total=${out}`,
      "--repeat",
      "3",
    ]);
    assert.match(stdout, /kernel time over 3 runs: min /);
    const expected = x.reduce((s, v) => s + v, 0);
    const [total] = load(out).data;
    assert.ok(Math.abs(total! - expected) <= 1e-5 * expected, `total ${total}, expected ${expected}`);
  });

  test(`kernels/heat.${ext} takes one explicit heat step, holding the border`, async () => {
    using tmp = tempDir();
    const dir = tmp.path;
    const [w, h, alpha] = [37, 23, 0.25];
    const u = floats(w * h, 8);
    const out = `${dir}/out.npy`;
    await runOk([
      "run",
      `kernels/heat.${ext}`,
      ...["--arg", `w=${w}`, "--arg", `h=${h}`, "--arg", `alpha=${alpha}`],
      ...["--arg", `u=@${save(dir, "u", u, [h, w])}`, "--out", `out=${out}`],
    ]);
    const expected = Float32Array.from(u, (c, i) => {
      const [x, y] = [i % w, Math.floor(i / w)];
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) return c;
      return c + alpha * (u[i - 1]! + u[i + 1]! + u[i - w]! + u[i + w]! - 4 * c);
    });
    const result = load(out);
    assert.deepEqual(result.shape, [h, w]);
    assertClose(result.data, expected, 0, 1e-6);
  });

  test(`kernels/mandelbrot.${ext} draws the set as a PNG of the right size with a plausible area`, async () => {
    using tmp = tempDir();
    const dir = tmp.path;
    const png = `${dir}/m.png`;
    const stdout = await runOk(["run", `kernels/mandelbrot.${ext}`, "--out", `img=${png}`]);
    assert.match(stdout, /img: uint32 \[512, 768\] {2}written to .*m\.png/);
    const image = decodePng(Deno.readFileSync(png));
    assert.deepEqual([image.width, image.height, image.channels], [768, 512, 3]);
    // Points that reach max_iter get the colour map's last colour (magma's #fcfdbf).
    let inside = 0;
    for (let i = 0; i < image.data.length; i += 3) {
      if (image.data[i] === 0xfc && image.data[i + 1] === 0xfd && image.data[i + 2] === 0xbf) inside++;
    }
    let expected = 0;
    for (let row = 0; row < 512; row++) {
      for (let col = 0; col < 768; col++) {
        const [cx, cy] = [-2.25 + col * (3 / 768), -1 + row * (3 / 768)];
        let [zx, zy, k] = [0, 0, 0];
        while (k < 256 && zx * zx + zy * zy <= 4) {
          [zx, zy, k] = [zx * zx - zy * zy + cx, 2 * zx * zy + cy, k + 1];
        }
        if (k === 256) expected++;
      }
    }
    assert.ok(expected > 0.1 * 768 * 512, "the host reference finds the set");
    assert.ok(
      Math.abs(inside - expected) < 0.005 * 768 * 512,
      `${inside} points inside, the host finds ${expected}`,
    );
  });

  test(`every kernel file of .${ext} runs from its // cudeno: line alone`, async () => {
    using tmp = tempDir();
    const dir = tmp.path;
    for (const name of ["saxpy", "vector_add", "matmul", "reduce", "heat"]) {
      const stdout = await runOk(["run", `kernels/${name}.${ext}`]);
      assert.match(stdout, /^\w+ on (cuda|opencl):[\d:]+ \(.+\), (grid|global) /);
      assert.match(stdout, /checksum [0-9a-f]{8}$/m);
    }
    const stdout = await runOk(["run", `kernels/mandelbrot.${ext}`, "--out", `img=${dir}/m.png`]);
    assert.match(stdout, /written to/);
    assert.ok(Deno.statSync(`${dir}/m.png`).size > 1000);
  });
}
