/** The mixed array work of the load tests (`load_test.ts`, `_load_worker.ts`), checked against the host. */
import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";

const ROWS = 4;
/** The rows' length; the tasks multiply by the identity of this size. */
export const COLS = 8;

/** One task's rounds: `b = 2a + k`, row sums, a product with the identity, a sort, a gather, a scan. */
export async function task(id: number, eye: ga.GPUArray, rounds: number): Promise<void> {
  const host = Float64Array.from({ length: ROWS * COLS }, (_, i) => ((i * 7 + id * 3) % 11) - 5);
  using a = ga.toGpu(host).reshape([ROWS, COLS]);
  for (let r = 0; r < rounds; r++) {
    const k = (r % 13) - 6;
    using b = a.mul(2).add(k);
    using product = ga.matmul(b, eye);
    using sorted = ga.sort(product, 1);
    using ends = ga.take(sorted, [0, COLS - 1], 1);
    using spans = ga.cumsum(ends, 1);
    using sums = ga.sum(b, 1);
    if (r % 10 !== 9) {
      await null; // let the other tasks queue their work in between
      continue;
    }
    const [gotSums, gotSpans] = [await sums.getAsync(), await spans.getAsync()];
    for (let i = 0; i < ROWS; i++) {
      const row = Array.from(host.subarray(i * COLS, (i + 1) * COLS), (v) => 2 * v + k).sort((x, y) => x - y);
      assert.equal(gotSums[i], row.reduce((s, v) => s + v, 0), `task ${id}, round ${r}: row ${i}'s sum`);
      assert.equal(gotSpans[2 * i], row[0], `task ${id}, round ${r}: row ${i}'s minimum`);
      assert.equal(gotSpans[2 * i + 1], row[0]! + row[COLS - 1]!, `task ${id}, round ${r}: min + max`);
    }
  }
}
