/**
 * The products matmul() hands to cuBLAS, checked on any backend: each case is planned for cuBLAS, and
 * the call it makes (operations, leading dimensions, batch strides, pointers' offsets) is run by a host
 * emulation of cuBLAS's column-major gemm on the arrays' buffers, then compared with NumPy's rules.
 * The allocations made while planning show which operands are read in place.
 */
import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { allocations, deviceInts, host, hostMatmul } from "./_linalg_host.ts";
import { type MatmulPlan, planMatmul } from "../../src/array/ops/matmul.ts";
import { type CublasCall, cublasCall } from "../../src/device/cublas.ts";
import { CUBLAS_OP_N, CUBLAS_OP_T } from "../../ffi/cublas.ts";

function readBuffer(buffer: ga.BackendBuffer, backend: ga.Backend): Float32Array {
  const data = new Float32Array(Math.floor(buffer.size / 4));
  backend.read(data, buffer, 0);
  return data;
}

/** cuBLAS's gemm as documented (column-major, `op(A)` of `m × k`), checking its argument rules first. */
function emulate(plan: MatmulPlan): CublasCall {
  const g = plan.gemm!;
  const call = cublasCall(g);
  const { m, n, k, lda, ldb, ldc, transa, transb } = call;
  assert.ok(lda >= Math.max(1, transa === CUBLAS_OP_N ? m : k), `lda ${lda}`);
  assert.ok(ldb >= Math.max(1, transb === CUBLAS_OP_N ? k : n), `ldb ${ldb}`);
  assert.ok(ldc >= Math.max(1, m), `ldc ${ldc}`);
  for (const x of [call.first, call.second, call.c]) {
    assert.ok(x.batch >= 0, "batch strides are not negative");
  }
  if (g.batch > 1) assert.ok(call.c.batch >= ldc * n, "the products do not overlap");
  const backend = plan.out.backend;
  const A = readBuffer(call.first.buffer, backend), B = readBuffer(call.second.buffer, backend);
  const C = readBuffer(call.c.buffer, backend);
  const at = (x: Float32Array, off: number, ld: number, op: number, r: number, c: number) =>
    x[off + (op === CUBLAS_OP_N ? r + c * ld : c + r * ld)]!;
  for (let i = 0; i < g.batch; i++) {
    const oa = call.first.offset + i * call.first.batch, ob = call.second.offset + i * call.second.batch;
    const oc = call.c.offset + i * call.c.batch;
    for (let r = 0; r < m; r++) {
      for (let c = 0; c < n; c++) {
        let s = 0;
        for (let p = 0; p < k; p++) s += at(A, oa, lda, transa, r, p) * at(B, ob, ldb, transb, p, c);
        C[oc + r + c * ldc] = s;
      }
    }
  }
  backend.write(call.c.buffer, C, 0);
  plan.writeBack();
  return call;
}

interface Case {
  readonly a: ga.GPUArray;
  readonly b: ga.GPUArray;
  readonly out?: ga.GPUArray;
  /** Allocations the plan may make (the result, when no out is given, counts). */
  readonly copies: number;
  readonly check?: (call: CublasCall, plan: MatmulPlan) => void;
}

function run(label: string, c: Case): void {
  const want = hostMatmul(host(c.a), host(c.b));
  let plan: MatmulPlan | undefined;
  const made = allocations(c.a.backend, () => plan = planMatmul(c.a, c.b, c.out, "cublas"));
  using p = plan!;
  assert.equal(made, c.copies, `${label}: allocations`);
  const call = emulate(p);
  c.check?.(call, p);
  assert.deepEqual(p.out.shape, want.shape, `${label}: shape`);
  assert.deepEqual(host(p.out).data, want.data, `${label}: values`);
}

eachBackend(
  "cuBLAS products read row- and column-major operands in place, as CUBLAS_OP_N and CUBLAS_OP_T",
  () => {
    const a = deviceInts([5, 6], 1),
      b = deviceInts([6, 4], 2),
      at = deviceInts([6, 5], 3),
      bt = deviceInts([4, 6], 4);
    const out = () => ga.empty([5, 4]);
    const ops = (transa: number, transb: number) => (call: CublasCall) => {
      assert.equal(call.transa, transa, "the first factor (our b)");
      assert.equal(call.transb, transb, "the second factor (our a)");
    };
    run("a @ b", { a, b, out: out(), copies: 0, check: ops(CUBLAS_OP_N, CUBLAS_OP_N) });
    run("a.T @ b", { a: at.T, b, out: out(), copies: 0, check: ops(CUBLAS_OP_N, CUBLAS_OP_T) });
    run("a @ b.T", { a, b: bt.T, out: out(), copies: 0, check: ops(CUBLAS_OP_T, CUBLAS_OP_N) });
    run("a.T @ b.T", { a: at.T, b: bt.T, out: out(), copies: 0, check: ops(CUBLAS_OP_T, CUBLAS_OP_T) });
    run("row and column windows", {
      a: deviceInts([9, 9], 5).slice([2, 7], [1, 7]),
      b: deviceInts([8, 8], 6).slice([1, 7], [3, 7]),
      out: out(),
      copies: 0,
      check: (call) => assert.equal(call.lda, 8),
    });
    run("batches of column-major matrices", {
      a: deviceInts([3, 6, 5], 7).transpose(0, 2, 1),
      b: deviceInts([3, 4, 6], 8).transpose(0, 2, 1),
      out: ga.empty([3, 5, 4]),
      copies: 0,
      check: ops(CUBLAS_OP_T, CUBLAS_OP_T),
    });
    run("Fortran-ordered 2-D arrays", {
      a: deviceInts([6, 5], 9).T,
      b: deviceInts([4, 6], 9).T,
      out: out(),
      copies: 0,
      check: ops(CUBLAS_OP_T, CUBLAS_OP_T),
    });
    run("a new result", { a, b, copies: 1 });
  },
);

eachBackend("cuBLAS products copy operands with flipped or stepped matrix axes first", () => {
  const out = () => ga.empty([4, 3]);
  run("flipped", { a: deviceInts([4, 5], 10).flip(0), b: deviceInts([5, 3], 11), out: out(), copies: 1 });
  run("stepped columns", {
    a: deviceInts([4, 10], 12).slice([], [null, null, 2]),
    b: deviceInts([5, 3], 13),
    out: out(),
    copies: 1,
  });
  run("both", {
    a: deviceInts([4, 5], 14).flip(1),
    b: deviceInts([5, 6], 15).slice([], [null, null, 2]),
    out: out(),
    copies: 2,
  });
  run("a Fortran-ordered 3-D array (the batch axis steps 1)", {
    a: deviceInts([3, 5, 4], 18).transpose(2, 1, 0),
    b: deviceInts([4, 3, 2], 19),
    out: ga.empty([4, 5, 2]),
    copies: 1,
  });
  run("a broadcast row", {
    a: ga.broadcastTo(deviceInts([5], 16), [4, 5]),
    b: deviceInts([5, 3], 17),
    out: out(),
    copies: 1,
  });
});

eachBackend("cuBLAS products run a batch as one strided call, a broadcast matrix at stride 0", () => {
  run("[3, 4, 5] @ [3, 5, 2]", {
    a: deviceInts([3, 4, 5], 20),
    b: deviceInts([3, 5, 2], 21),
    out: ga.empty([3, 4, 2]),
    copies: 0,
    check: (call, plan) => {
      assert.equal(plan.gemm!.batch, 3);
      assert.deepEqual([call.first.batch, call.second.batch, call.c.batch], [10, 20, 8]);
    },
  });
  run("[4, 5] @ [3, 5, 2]", {
    a: deviceInts([4, 5], 22),
    b: deviceInts([3, 5, 2], 23),
    out: ga.empty([3, 4, 2]),
    copies: 0,
    check: (call, plan) => {
      assert.equal(plan.gemm!.batch, 3);
      assert.equal(call.second.batch, 0, "one matrix of a, repeated");
    },
  });
  run("[2, 1, 4, 5] @ [3, 5, 2] broadcasts a along one axis of two: a is copied", {
    a: deviceInts([2, 1, 4, 5], 24),
    b: deviceInts([3, 5, 2], 25),
    out: ga.empty([2, 3, 4, 2]),
    copies: 2,
  });
});

eachBackend("cuBLAS products of a batch by one matrix run as one product of all the rows", () => {
  const fold = (rows: number) => (_: CublasCall, plan: MatmulPlan) => {
    assert.equal(plan.gemm!.batch, 1);
    assert.equal(plan.gemm!.m, rows);
  };
  run("[6, 4, 5] @ [5, 3]", {
    a: deviceInts([6, 4, 5], 30),
    b: deviceInts([5, 3], 31),
    out: ga.empty([6, 4, 3]),
    copies: 0,
    check: fold(24),
  });
  run("[6, 1, 5] @ [5, 3]", {
    a: deviceInts([6, 1, 5], 32),
    b: deviceInts([5, 3], 33),
    out: ga.empty([6, 1, 3]),
    copies: 0,
    check: fold(6),
  });
  run("[2, 3, 4, 5] @ [5]", {
    a: deviceInts([2, 3, 4, 5], 34),
    b: deviceInts([5], 35),
    out: ga.empty([2, 3, 4]),
    copies: 0,
    check: fold(24),
  });
  run("a transposed batch is not folded", {
    a: deviceInts([6, 5, 4], 36).transpose(0, 2, 1),
    b: deviceInts([5, 3], 37),
    out: ga.empty([6, 4, 3]),
    copies: 0,
    check: (_, plan) => assert.equal(plan.gemm!.batch, 6),
  });
});

eachBackend(
  "cuBLAS products write a column-major out as the transposed product, and others through a copy",
  () => {
    run("out = zeros([4, 5]).T", {
      a: deviceInts([5, 6], 40),
      b: deviceInts([6, 4], 41),
      out: ga.zeros([4, 5]).T,
      copies: 0,
      check: (call) => assert.equal(call.m, 5, "Cᵀ = Bᵀ·Aᵀ: cuBLAS's m is our m again"),
    });
    run("a flipped out", {
      a: deviceInts([5, 6], 42),
      b: deviceInts([6, 4], 43),
      out: ga.zeros([5, 4]).flip(0),
      copies: 1,
    });
    const sq = deviceInts([4, 4], 44);
    run("out sharing a's memory", { a: sq, b: deviceInts([4, 4], 45), out: sq.T, copies: 1 });
  },
);

eachBackend("cuBLAS products of 1-D operands", () => {
  run("[5] @ [5, 3]", { a: deviceInts([5], 50), b: deviceInts([5, 3], 51), copies: 1 });
  run("[4, 5] @ [5]", { a: deviceInts([4, 5], 52), b: deviceInts([5], 53), copies: 1 });
  run("[5] @ [5]", { a: deviceInts([5], 54), b: deviceInts([5], 55), copies: 1 });
  run("a column as a vector", {
    a: deviceInts([4, 5], 56),
    b: deviceInts([5, 5], 57).slice([], 2),
    copies: 1,
  });
});
