import assert from "node:assert/strict";
import { type DType, DTYPES, resultType } from "../../src/array/mod.ts";

const mod = new URL("../../src/array/mod.ts", import.meta.url).href;

/** Type-checks `body` (importing the array module as `ga`) in a fresh file; returns deno check's output. */
async function check(body: string): Promise<{ ok: boolean; text: string }> {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/typed.ts`;
    await Deno.writeTextFile(file, `import * as ga from "${mod}";\n${body}\n`);
    const out = await new Deno.Command(Deno.execPath(), { args: ["check", "-q", file], stderr: "piped" })
      .output();
    return { ok: out.success, text: new TextDecoder().decode(out.stderr) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("ResultType agrees with resultType() for every pair of dtypes", async () => {
  const dtypes = Object.keys(DTYPES) as DType[];
  const lines = dtypes.flatMap((a) =>
    dtypes.map((b) => {
      const r = resultType(a, b);
      return `{ const x: ga.ResultType<"${a}", "${b}"> = "${r}"; const y: "${r}" = x; void y; }`;
    })
  );
  const { ok, text } = await check(lines.join("\n"));
  assert.ok(ok, text);
});

Deno.test("elementwise results carry their dtype, so get() is the matching typed array", async () => {
  const good = await check(`
const a = ga.toGpu(new Float32Array(4)), b = ga.toGpu(new Float32Array(4));
const f: Float32Array = a.add(b).get();
const g: Float32Array = ga.mul(a, 2).sqrt().get();
const i: Int32Array = ga.toGpu(new Int32Array(4)).add(1n).get();
const d: Float64Array = ga.toGpu(new Int32Array(4)).div(ga.toGpu(new Int32Array(4))).get();
const c: Uint8Array = a.lt(b).get();
const x: number[] = Array.from(a.add(b).get());
void [f, g, i, d, c, x];`);
  assert.ok(good.ok, good.text);
  const bad = await check(
    `const a = ga.toGpu(new Float32Array(4)); const wrong: Int32Array = a.add(a).get(); void wrong;`,
  );
  assert.equal(bad.ok, false, "a float32 result is not an Int32Array");
  assert.match(bad.text, /Float32Array/);
});

Deno.test("reductions are host values without an axis and typed arrays with one", async () => {
  const good = await check(`
const a = ga.toGpu(new Float32Array(6), [2, 3]);
const i = ga.toGpu(new Int32Array(6), [2, 3]);
const s: number = a.sum();
const si: bigint = i.sum();
const m: number = i.mean();
const b: boolean = a.any();
const k: number = a.argmax();
const mx: number = i.max();
const col: Float32Array = a.sum({ axis: 0 }).get();
const ci: BigInt64Array = ga.sum(i, { axis: [0, 1] }).get();
const mi: Float64Array = i.mean({ axis: 1, keepdims: true }).get();
const am: BigInt64Array = ga.argmax(a, { axis: 1 }).get();
const bo: Uint8Array = a.all({ axis: 0 }).get();
const kd: Float32Array = a.max({ keepdims: true }).get();
const p: Float32Array = ga.softmax(a).get();
const v: Float64Array = ga.var(i, { axis: 0, ddof: 1 }).get();
void [s, si, m, b, k, mx, col, ci, mi, am, bo, kd, p, v];`);
  assert.ok(good.ok, good.text);
  const bad = await check(
    `const a = ga.toGpu(new Float32Array(4)); const n: number = a.sum({ axis: 0 }); void n;`,
  );
  assert.equal(bad.ok, false, "a sum along an axis is an array, not a number");
  assert.match(bad.text, /GPUArray/);
});
