/**
 * `ga.linalg`: NumPy's `numpy.linalg` on GPU arrays — solving and inverting (`solve`, `inv`, `lstsq`,
 * `pinv`), determinants (`det`, `slogdet`), decompositions (`cholesky`, `qr`, `svd`, `eigh`, `eig`), what is
 * read from them (`svdvals`, `eigvalsh`, `matrixRank`, `cond`, `norm` with every `ord`) and products
 * (`matrixPower`, `multiDot`), for float32 and float64 (integers compute in float64), over leading batch
 * axes. On CUDA the decompositions run on cuSOLVER (a call per matrix), except batches of small
 * matrices (order 32 or less); those, and everything on OpenCL, run on the module's own kernels (LU with
 * partial pivoting, Cholesky, Householder QR, Jacobi for `eigh` and the SVD), a work-group per matrix,
 * a whole batch in one launch. `solve` and `inv` of order 8 or less run on every backend as one launch
 * of a kernel that keeps each matrix in one thread's registers.
 * Results of several arrays are NumPy's named tuples: arrays that unpack (`const [q, r] = qr(a)`) and
 * have the names too (`qr(a).Q`). A matrix that cannot be factored is a {@link LinAlgError}, found by
 * reading each matrix's status back; `{ check: false }` skips that read (results are then inf or NaN).
 * `ga.grad` and its kin differentiate `solve`, `inv`, `det`, `slogdet`, `cholesky`, `qr`, `eigh`, `svd` and
 * what stands on them (PyTorch's rules, real and complex).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const a = ga.random.normal([4, 4], { seed: 1 });
 * const x = ga.linalg.solve(a, ga.ones([4]));
 * const [q, r] = ga.linalg.qr(a);
 * const { U, S, Vh } = ga.linalg.svd(a);
 * console.log(ga.linalg.det(a), ga.linalg.cond(a));
 * ```
 *
 * @module
 */

export { LinAlgError } from "./errors.ts";
export type { CheckOptions } from "./operands.ts";
export { inv, type LinalgType, type LuType, solve } from "./solve.ts";
export { det, slogdet, type SlogdetResult } from "./det.ts";
export { cholesky, type CholeskyOptions } from "./cholesky.ts";
export { qr, type QrMode, type QrOptions, type QrResult } from "./qr.ts";
export { svd, type SvdOptions, type SvdResult, svdvals } from "./svd.ts";
export { eigh, type EighOptions, type EighResult, eigvalsh } from "./eigh.ts";
export { eig, type EigResult, type EigType, eigvals } from "./eig.ts";
export { lstsq, type LstsqOptions, type LstsqResult } from "./lstsq.ts";
export { matrixRank, type MatrixRankOptions, pinv, type PinvOptions } from "./rank.ts";
export { cond, type CondOptions } from "./cond.ts";
export { type LinalgNormOptions, norm, type NormOrd } from "./norm.ts";
export { matrixPower, multiDot } from "./products.ts";
