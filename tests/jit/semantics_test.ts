import assert from "node:assert/strict";
import { EDGE_CASES } from "./edge_cases.ts";

for (const c of EDGE_CASES) {
  Deno.test(`the simulator agrees with JavaScript: ${c.name}`, () => {
    const args = c.args();
    c.kernel.simulate({ grid: 1, block: c.threads }, ...args);
    for (const [index, want] of Object.entries(c.expected)) {
      const got = Array.from(args[Number(index)] as ArrayLike<number>);
      assert.equal(got.length, want.length, `argument ${index}`);
      got.forEach((v, i) =>
        assert.ok(Object.is(v, want[i]), `argument ${index}[${i}] is ${v}, expected ${want[i]}`)
      );
    }
  });
}
