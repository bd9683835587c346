import assert from "node:assert/strict";
import { rng } from "./_rng.ts";
import { translate } from "../../src/jit/translate.ts";
import { parseType } from "../../src/jit/types.ts";
import { JitError } from "../../src/jit/errors.ts";
import { atomicAdd, blockDim, blockIdx, grid, shared, syncthreads, threadIdx } from "../../src/jit/mod.ts";

const SEED = Number(Deno.env.get("CUDENO_FUZZ_SEED") ?? "1");
const CASES = 100_000;

const PIECES = [
  "(",
  ")",
  "{",
  "}",
  "[",
  "]",
  ";",
  ",",
  "=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "<",
  ">",
  "&&",
  "||",
  "!",
  "?",
  ":",
  ".",
  "=>",
  "const ",
  "let ",
  "if ",
  "else ",
  "for ",
  "while ",
  "return ",
  "break;",
  "continue;",
  "i",
  "n",
  "a",
  "x",
  "1",
  "2.5",
  "0x1f",
  "1e3",
  "Math.sqrt",
  "threadIdx.x",
  "blockIdx",
  "syncthreads()",
  "shared.array",
  '"s"',
  "`t`",
  "{}",
  "[]",
  "new ",
  "this",
  "class ",
  "function ",
  "...",
  "console.log",
  "++",
  "--",
  "+=",
  ">>>",
  "**",
  "\n",
  " ",
];

declare const TILE: number;

/** Valid kernels (their sources are mutated) with their signatures. */
const CORPUS: { source: string; signature: Record<string, string> }[] = [
  {
    signature: { a: "f32", x: "f32[]", y: "f32[]", n: "i32" },
    source: String((a: number, x: Float32Array, y: Float32Array, n: number) => {
      const i = grid(1);
      if (i < n) y[i] = a * x[i]! + y[i]!;
    }),
  },
  {
    signature: { a: "f32[]", b: "f32[]", c: "f32[]", n: "i32" },
    source: String((a: Float32Array, b: Float32Array, c: Float32Array, n: number) => {
      const ta = shared.array("f32", 256), tb = shared.array("f32", 256);
      const [x, y] = grid(2);
      let acc = 0.0;
      for (let t = 0; t < n / TILE; t++) {
        ta[threadIdx.y * TILE + threadIdx.x] = a[y * n + t * TILE + threadIdx.x]!;
        tb[threadIdx.y * TILE + threadIdx.x] = b[(t * TILE + threadIdx.y) * n + x]!;
        syncthreads();
        for (let k = 0; k < TILE; k++) acc += ta[threadIdx.y * TILE + k]! * tb[k * TILE + threadIdx.x]!;
        syncthreads();
      }
      if (x < n && y < n) c[y * n + x] = acc;
    }),
  },
  {
    signature: { x: "f32[]", out: "f32[]", n: "i32" },
    source: String((x: Float32Array, out: Float32Array, n: number) => {
      const tmp = shared.array("f32", 256);
      const i = blockIdx.x * blockDim.x + threadIdx.x;
      tmp[threadIdx.x] = i < n ? x[i]! : 0;
      syncthreads();
      for (let s = blockDim.x >> 1; s > 0; s >>= 1) {
        if (threadIdx.x < s) tmp[threadIdx.x] += tmp[threadIdx.x + s]!;
        syncthreads();
      }
      if (threadIdx.x === 0) atomicAdd(out, 0, tmp[0]!);
    }),
  },
  {
    signature: { img: "u32[]", w: "i32", h: "i32", iters: "i32" },
    source: String((img: Uint32Array, w: number, h: number, iters: number) => {
      const [px, py] = grid(2);
      if (px >= w || py >= h) return;
      let zr = 0.0, zi = 0.0, k = 0;
      const cr = -2.0 + (3.0 * px) / w, ci = -1.5 + (3.0 * py) / h;
      while (k < iters && zr * zr + zi * zi < 4.0) {
        const t = zr * zr - zi * zi + cr;
        zi = 2.0 * zr * zi + ci;
        zr = t;
        k++;
      }
      img[py * w + px] = k;
    }),
  },
];

function mutate(text: string, r: () => number): string {
  let s = text;
  const edits = 1 + Math.floor(r() * 4);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(r() * (s.length + 1));
    const kind = r();
    if (kind < 0.35) s = s.slice(0, at) + s.slice(at + 1 + Math.floor(r() * 8));
    else if (kind < 0.85) s = s.slice(0, at) + PIECES[Math.floor(r() * PIECES.length)]! + s.slice(at);
    else s = s.slice(0, at);
  }
  return s;
}

Deno.test(`the JIT front end on ${CASES} fuzzed kernel sources gives IR or a JitError with a position, nothing else`, () => {
  const r = rng(SEED);
  let translated = 0;
  for (let i = 0; i < CASES; i++) {
    const base = CORPUS[Math.floor(r() * CORPUS.length)]!;
    const source = mutate(base.source, r);
    const params = Object.entries(base.signature).map(([name, type]) => ({ name, type: parseType(type)! }));
    const t = performance.now();
    try {
      translate({
        kind: "kernel",
        name: "fuzzed",
        source,
        params,
        returns: "void",
        constants: { TILE: 16 },
        use: {},
      });
      translated++;
    } catch (e) {
      assert.ok(e instanceof JitError, `case ${i} (seed ${SEED}) threw ${e}\n${source}`);
      assert.ok(e.line >= 1 && e.column >= 1, `case ${i}: no position`);
    }
    assert.ok(performance.now() - t < 500, `case ${i} took ${(performance.now() - t).toFixed(0)} ms`);
  }
  assert.ok(
    translated > CASES / 50,
    `only ${translated} sources translated: the fuzzer is not reaching valid code`,
  );
});
