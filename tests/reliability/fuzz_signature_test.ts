import assert from "node:assert/strict";
import { rng } from "./_rng.ts";
import { parseKernels, parseParameterList } from "../../src/kernel/signature.ts";

const SEED = Number(Deno.env.get("CUDENO_FUZZ_SEED") ?? "1");
const CASES = 100_000;

const PIECES = [
  "__global__",
  "__kernel",
  "kernel",
  "void",
  "int",
  "float",
  "*",
  "&",
  "(",
  ")",
  "{",
  "}",
  "[",
  "]",
  ",",
  ";",
  "const",
  "__restrict__",
  "unsigned",
  "long",
  "char",
  "__global",
  "__local",
  "x",
  "n",
  "template",
  "<",
  ">",
  "typename",
  "T",
  "extern",
  '"C"',
  "__launch_bounds__",
  "__attribute__",
  "//",
  "/*",
  "*/",
  "\n",
  "#define",
  "\\",
  '"',
  "'",
  "=",
  "0",
  "size_t",
  "__half",
  "struct",
  "::",
  " ",
  "\t",
];

const SEEDS = [
  `__global__ void add(float *a, const float *__restrict__ b, int n) { a[0] = b[0]; }`,
  `extern "C" __global__ void __launch_bounds__(256) k(unsigned long long x, char c[]) {}`,
  `__kernel __attribute__((reqd_work_group_size(64,1,1))) void r(__global float *x, __local float *t, uint n) {}`,
  `template <typename T> __global__ void t(T *x) {}`,
];

/** A random mutation of a valid source, or random pieces glued together. */
function input(r: () => number): string {
  if (r() < 0.5) {
    let s = SEEDS[Math.floor(r() * SEEDS.length)]!;
    const edits = 1 + Math.floor(r() * 4);
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(r() * (s.length + 1));
      const kind = r();
      if (kind < 0.4) s = s.slice(0, at) + s.slice(at + 1 + Math.floor(r() * 5));
      else if (kind < 0.8) s = s.slice(0, at) + PIECES[Math.floor(r() * PIECES.length)]! + s.slice(at);
      else s = s.slice(0, at);
    }
    return s;
  }
  const n = Math.floor(r() * 30);
  return Array.from({ length: n }, () => PIECES[Math.floor(r() * PIECES.length)]).join(r() < 0.5 ? " " : "");
}

Deno.test(`parseKernels() and parseParameterList() on ${CASES} fuzzed inputs give results or SyntaxErrors, nothing else`, () => {
  const r = rng(SEED);
  let parsed = 0;
  const started = performance.now();
  for (let i = 0; i < CASES; i++) {
    const text = input(r);
    const dialect = r() < 0.5 ? "cuda" : "opencl";
    for (const parse of [() => parseKernels(text, dialect), () => parseParameterList(text, dialect)]) {
      const t = performance.now();
      try {
        parse();
        parsed++;
      } catch (e) {
        assert.ok(e instanceof SyntaxError, `case ${i} (seed ${SEED}) threw ${e}: ${JSON.stringify(text)}`);
        assert.ok(!e.message.includes("\n"), `case ${i}: a multi-line message: ${JSON.stringify(e.message)}`);
      }
      assert.ok(
        performance.now() - t < 250,
        `case ${i} took ${performance.now() - t} ms: ${JSON.stringify(text)}`,
      );
    }
  }
  assert.ok(parsed > CASES / 20, `only ${parsed} inputs parsed: the fuzzer is not reaching valid code`);
  assert.ok(performance.now() - started < 90_000);
});
