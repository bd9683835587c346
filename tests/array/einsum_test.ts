import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { deviceInts, host, hostEinsum } from "./_linalg_host.ts";

/** Checks einsum(subscripts, ...operands) against the host's loop over every index. */
function check(subscripts: string, ...operands: ga.GPUArray[]): void {
  const want = hostEinsum(subscripts, ...operands.map(host));
  const got = ga.einsum(subscripts, ...operands);
  if (want.shape.length === 0) {
    assert.ok(!(got instanceof ga.GPUArray), `${subscripts}: a host value`);
    assert.equal(Number(got), want.data[0], subscripts);
    return;
  }
  assert.ok(got instanceof ga.GPUArray, `${subscripts}: an array`);
  assert.deepEqual(got.shape, want.shape, `${subscripts}: shape`);
  assert.deepEqual(host(got).data, want.data, `${subscripts}: values`);
}

eachBackend("einsum() computes the two-operand forms issue 19 lists", () => {
  const m = deviceInts([3, 4], 1), n = deviceInts([4, 5], 2), v = deviceInts([4], 3), w = deviceInts([4], 4);
  check("ij,jk->ik", m, n);
  check("bij,bjk->bik", deviceInts([2, 3, 4], 5), deviceInts([2, 4, 5], 6));
  check("i,i->", v, w);
  check("ij,j->i", m, v);
  check("i,j->ij", v, deviceInts([5], 7));
});

eachBackend("einsum() lowers other contractions of two operands to one product", () => {
  const q = deviceInts([2, 3, 4], 10), k = deviceInts([2, 5, 4], 11);
  check("bij,bkj->bik", q, k);
  check("ab,bc->ac", deviceInts([3, 4], 12), deviceInts([4, 2], 13));
  check("ji,jk->ik", deviceInts([4, 3], 14), deviceInts([4, 2], 15));
  check("ij,kj->ki", deviceInts([3, 4], 16), deviceInts([2, 4], 17));
  check("ij,ij->", deviceInts([3, 4], 18), deviceInts([3, 4], 19));
  check("ij,ji->", deviceInts([3, 4], 20), deviceInts([4, 3], 21));
  check("bi,bj->bij", deviceInts([2, 3], 22), deviceInts([2, 4], 23));
  check("ijk,ikl->lji", deviceInts([2, 3, 4], 24), deviceInts([2, 4, 5], 25));
  check(" ij , jk -> ik ", deviceInts([3, 4], 26), deviceInts([4, 2], 27));
  check("ij,jk->ik", deviceInts([4, 3], 28).T, deviceInts([2, 4], 29).flip(0).T);
});

eachBackend("einsum() of one operand: a transposed view, a diagonal view, a trace, a sum", () => {
  const a = deviceInts([3, 4], 30), sq = deviceInts([4, 4], 31);
  check("ij->ji", a);
  check("ijk->kij", deviceInts([2, 3, 4], 32));
  check("ii->i", sq);
  check("ii->", sq);
  check("ij->", a);
  const t = ga.einsum("ij->ji", a);
  t.fill(0);
  assert.deepEqual([...a.get()], new Array(12).fill(0), "ij->ji is a view: writing it writes a");
  assert.equal(
    ga.einsum("ii->", deviceInts([3, 3], 33, "int32")),
    BigInt(hostEinsum("ii->", host(deviceInts([3, 3], 33))).data[0]!),
  );
});

eachBackend("einsum() rejects other forms, naming the supported ones", () => {
  const m = ga.zeros([3, 3]), v = ga.zeros([3]);
  const unsupported: [string, ga.GPUArray[], RegExp][] = [
    ["ij->i", [m], /this one-operand form is not one of them/],
    ["ij,jk->i", [m, m], /index k is in one operand only and not in the output/],
    ["ii,i->i", [m, v], /an operand repeats an index/],
    ["i,i,i->", [v, v, v], /it has 3 operands/],
    ["ij,jk", [m, m], /write the output after one "->"/],
    ["i...,i->", [v, v], /indices must be letters/],
    ["ij->kj", [m], /each output index must appear once, and in an operand/],
  ];
  for (const [s, ops, reason] of unsupported) {
    assert.throws(() => ga.einsum(s, ...ops), (e: Error) => {
      assert.equal(e.name, "RangeError", s);
      assert.match(e.message, new RegExp(`^Cannot einsum "${s.replace(/[.[\]]/g, "\\$&")}": `), s);
      assert.match(e.message, reason, s);
      assert.match(e.message, /the supported forms are .*"ij,jk->ik".*"ij->ji".*"ii->i"/, s);
      return true;
    });
  }
  assert.throws(() => ga.einsum("ij,jk->ik", ga.zeros([2, 3]), ga.zeros([4, 5])), {
    name: "RangeError",
    message:
      'Cannot einsum "ij,jk->ik" on arrays of shapes [2, 3] and [4, 5]: index j is 3 in the first and 4 ' +
      "in the second",
  });
  assert.throws(() => ga.einsum("ij,jk->ik", m), {
    name: "RangeError",
    message: /names 2 operand\(s\) and 1 were given/,
  });
  assert.throws(() => ga.einsum("ijk->kji", m), {
    name: "RangeError",
    message: /operand 0 has shape \[3, 3\], but "ijk" names 3 axes/,
  });
  assert.throws(() => ga.einsum("ii->i", ga.zeros([2, 3])), {
    name: "RangeError",
    message: /index i is 2 and 3/,
  });
});
