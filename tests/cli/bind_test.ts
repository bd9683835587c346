import assert from "node:assert/strict";
import { bindArgs } from "../../src/cli/bind.ts";
import { UsageError } from "../../src/cli/usage_error.ts";
import { parseKernels } from "../../src/kernel/signature.ts";

const [saxpy] = parseKernels("__global__ void saxpy(int n, float a, const float *x, float *y) {}", "cuda");

function rejects(fn: () => unknown, message: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof UsageError, String(e));
    assert.match(e.message, message);
    return true;
  });
}

Deno.test("bindArgs() evaluates arguments in dependency order, whatever order they are given in", () => {
  const { args, env } = bindArgs(saxpy!, ["y=zeros(n)", "x=arange(n)", "a=n/2", "n=1<<3"]);
  assert.deepEqual(args.map((a) => a.kind), ["scalar", "scalar", "array", "array"]);
  assert.equal(env.get("n"), 8);
  assert.equal(env.get("a"), 4);
  const x = args[2]!;
  assert.ok(x.kind === "array" && x.data instanceof Float32Array);
  assert.deepEqual(Array.from(x.data), [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(x.shape, [8]);
});

Deno.test("bindArgs() converts scalars to 64-bit parameters as bigints", () => {
  const [k] = parseKernels("__global__ void k(unsigned long long n, long long *out) {}", "cuda");
  const { args } = bindArgs(k!, ["n=2**63", "out=zeros(2)"]);
  assert.ok(args[0]!.kind === "scalar" && args[0]!.value === 2n ** 63n);
  assert.ok(args[1]!.kind === "array" && args[1]!.data instanceof BigInt64Array);
});

Deno.test("bindArgs() sizes an OpenCL __local parameter in elements of its type", () => {
  const [k] = parseKernels("__kernel void k(__global float *x, __local double *tmp) {}", "opencl");
  const { args } = bindArgs(k!, ["x=ones(4)", "tmp=2*32"]);
  assert.ok(args[1]!.kind === "local" && args[1]!.bytes === 64 * 8);
  rejects(() => bindArgs(k!, ["x=ones(4)", "tmp=0"]), /a __local parameter needs at least 1 element/);
});

Deno.test("bindArgs() names every missing parameter with an example", () => {
  rejects(
    () => bindArgs(saxpy!, ["n=4"]),
    /^Cannot run saxpy: no value for a \(float\), x \(const float \*\), y \(float \*\); give each with --arg, e\.g\. --arg a=1\.5 --arg x=rand\(1024\) --arg y=rand\(1024\)$/,
  );
});

Deno.test("bindArgs() rejects names that are not parameters, in --arg and in expressions", () => {
  rejects(
    () => bindArgs(saxpy!, ["q=1"]),
    /^Cannot use --arg q=1: saxpy has no parameter q \(its parameters are n, a, x, y\)$/,
  );
  rejects(
    () => bindArgs(saxpy!, ["n=m", "a=1", "x=rand(n)", "y=rand(n)"]),
    /^Cannot use --arg n=m: n \(int\) needs an integer and got m, which is neither a number nor one of saxpy's parameters \(n, a, x, y\)$/,
  );
  rejects(
    () => bindArgs(saxpy!, ["n=abc", "a=1", "x=rand(n)", "y=rand(n)"]),
    /^Cannot use --arg n=abc: n \(int\) needs an integer and got abc, which is neither/,
  );
  rejects(
    () => bindArgs(saxpy!, ["n=4", "a=two * 1", "x=rand(n)", "y=rand(n)"]),
    /^Cannot use --arg a=two \* 1: a \(float\) needs a number and got two \* 1, where two is neither a number nor/,
  );
  rejects(
    () => bindArgs(saxpy!, ["n=4", "a=1", "x=rand(n)", "y=data"]),
    /^Cannot use --arg y=data: y \(float \*\) needs an array, such as rand\(1024\), zeros\(n\) or @file\.npy and got data/,
  );
});

Deno.test("bindArgs() rejects values that refer to each other in a cycle", () => {
  rejects(
    () => bindArgs(saxpy!, ["n=a", "a=n", "x=rand(4)", "y=rand(4)"]),
    /^Cannot evaluate --arg n: its value depends on itself \(n → a → n\)/,
  );
});

Deno.test("bindArgs() rejects templates and parameters whose type cudeno cannot make", () => {
  const [template] = parseKernels("template <typename T> __global__ void t(T *x) {}", "cuda");
  rejects(() => bindArgs(template!, ["x=ones(1)"]), /^Cannot run t: it is a template/);
  const [struct] = parseKernels("__kernel void v(struct pair f, __global float *x) {}", "opencl");
  rejects(
    () => bindArgs(struct!, ["f=1", "x=ones(1)"]),
    /^Cannot run v: parameter f \(struct pair\) is pair by value, which cudeno run cannot make/,
  );
  const [pointer] = parseKernels("__kernel void p(__global float4 *f) {}", "opencl");
  rejects(
    () => bindArgs(pointer!, ["f=ones(1)"]),
    /parameter f \(__global float4 \*\) is a pointer to float4/,
  );
});

Deno.test("bindArgs() binds a vector parameter from a list of values, each converted to the element type", () => {
  const [k] = parseKernels("__global__ void k(float3 v, int n, uchar4 c, longlong2 l) {}", "cuda");
  const { args } = bindArgs(k!, ["n=8", "v=0.1, n/2, -1", "c=0,1,2,255", "l=2**62,-1"]);
  assert.deepEqual(args.map((a) => a.kind === "vector" ? a.values : undefined), [
    [Math.fround(0.1), 4, -1],
    undefined,
    [0, 1, 2, 255],
    [2n ** 62n, -1n],
  ]);
  rejects(
    () => bindArgs(k!, ["n=8", "v=1,2,3", "c=0,1,2,256", "l=1,2"]),
    /parameter c is uchar4 \(element 3: unsigned char\), which holds 0 to 255/,
  );
  rejects(
    () => bindArgs(k!, ["n=8,9", "v=1,2,3", "c=0,1,2,3", "l=1,2"]),
    /parameter n is int, a scalar, but 8,9 lists 2 values/,
  );
  rejects(() => bindArgs(k!, ["n=v", "v=1,2,3", "c=0,1,2,3", "l=1,2"]), /'v' is an array argument/);
  const [untyped] = parseKernels("__global__ void u(void *p) {}", "cuda");
  rejects(() => bindArgs(untyped!, ["p=ones(1)"]), /parameter p \(void \*\) is a pointer to void/);
});
