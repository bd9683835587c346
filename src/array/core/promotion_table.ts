/**
 * NumPy's type promotion as a table at the type level, complex dtypes included: what
 * `resultType` in `dtypes.ts` gives for each pair (a test checks that the two agree).
 *
 * @module
 */

/**
 * `resultType` as a table at the type level (a test checks that the two agree).
 *
 * @example
 * ```ts
 * import type { PromotionTable } from "@cudeno/cudeno/array";
 * const d: PromotionTable["int32"]["float32"] = "float64";
 * ```
 */
export interface PromotionTable {
  /** What float32 gives with each dtype. */
  float32: {
    float32: "float32";
    float64: "float64";
    float16: "float32";
    bfloat16: "float32";
    int8: "float32";
    uint8: "float32";
    int16: "float32";
    uint16: "float32";
    int32: "float64";
    uint32: "float64";
    int64: "float64";
    uint64: "float64";
    bool: "float32";
    complex64: "complex64";
    complex128: "complex128";
  };
  /** What float64 gives with each dtype. */
  float64: {
    float32: "float64";
    float64: "float64";
    float16: "float64";
    bfloat16: "float64";
    int8: "float64";
    uint8: "float64";
    int16: "float64";
    uint16: "float64";
    int32: "float64";
    uint32: "float64";
    int64: "float64";
    uint64: "float64";
    bool: "float64";
    complex64: "complex128";
    complex128: "complex128";
  };
  /** What float16 gives with each dtype. */
  float16: {
    float32: "float32";
    float64: "float64";
    float16: "float16";
    bfloat16: "float32";
    int8: "float16";
    uint8: "float16";
    int16: "float32";
    uint16: "float32";
    int32: "float64";
    uint32: "float64";
    int64: "float64";
    uint64: "float64";
    bool: "float16";
    complex64: "complex64";
    complex128: "complex128";
  };
  /** What bfloat16 gives with each dtype. */
  bfloat16: {
    float32: "float32";
    float64: "float64";
    float16: "float32";
    bfloat16: "bfloat16";
    int8: "float32";
    uint8: "float32";
    int16: "float32";
    uint16: "float32";
    int32: "float64";
    uint32: "float64";
    int64: "float64";
    uint64: "float64";
    bool: "bfloat16";
    complex64: "complex64";
    complex128: "complex128";
  };
  /** What int8 gives with each dtype. */
  int8: {
    float32: "float32";
    float64: "float64";
    float16: "float16";
    bfloat16: "float32";
    int8: "int8";
    uint8: "int16";
    int16: "int16";
    uint16: "int32";
    int32: "int32";
    uint32: "int64";
    int64: "int64";
    uint64: "float64";
    bool: "int8";
    complex64: "complex64";
    complex128: "complex128";
  };
  /** What uint8 gives with each dtype. */
  uint8: {
    float32: "float32";
    float64: "float64";
    float16: "float16";
    bfloat16: "float32";
    int8: "int16";
    uint8: "uint8";
    int16: "int16";
    uint16: "uint16";
    int32: "int32";
    uint32: "uint32";
    int64: "int64";
    uint64: "uint64";
    bool: "uint8";
    complex64: "complex64";
    complex128: "complex128";
  };
  /** What int16 gives with each dtype. */
  int16: {
    float32: "float32";
    float64: "float64";
    float16: "float32";
    bfloat16: "float32";
    int8: "int16";
    uint8: "int16";
    int16: "int16";
    uint16: "int32";
    int32: "int32";
    uint32: "int64";
    int64: "int64";
    uint64: "float64";
    bool: "int16";
    complex64: "complex64";
    complex128: "complex128";
  };
  /** What uint16 gives with each dtype. */
  uint16: {
    float32: "float32";
    float64: "float64";
    float16: "float32";
    bfloat16: "float32";
    int8: "int32";
    uint8: "uint16";
    int16: "int32";
    uint16: "uint16";
    int32: "int32";
    uint32: "uint32";
    int64: "int64";
    uint64: "uint64";
    bool: "uint16";
    complex64: "complex64";
    complex128: "complex128";
  };
  /** What int32 gives with each dtype. */
  int32: {
    float32: "float64";
    float64: "float64";
    float16: "float64";
    bfloat16: "float64";
    int8: "int32";
    uint8: "int32";
    int16: "int32";
    uint16: "int32";
    int32: "int32";
    uint32: "int64";
    int64: "int64";
    uint64: "float64";
    bool: "int32";
    complex64: "complex128";
    complex128: "complex128";
  };
  /** What uint32 gives with each dtype. */
  uint32: {
    float32: "float64";
    float64: "float64";
    float16: "float64";
    bfloat16: "float64";
    int8: "int64";
    uint8: "uint32";
    int16: "int64";
    uint16: "uint32";
    int32: "int64";
    uint32: "uint32";
    int64: "int64";
    uint64: "uint64";
    bool: "uint32";
    complex64: "complex128";
    complex128: "complex128";
  };
  /** What int64 gives with each dtype. */
  int64: {
    float32: "float64";
    float64: "float64";
    float16: "float64";
    bfloat16: "float64";
    int8: "int64";
    uint8: "int64";
    int16: "int64";
    uint16: "int64";
    int32: "int64";
    uint32: "int64";
    int64: "int64";
    uint64: "float64";
    bool: "int64";
    complex64: "complex128";
    complex128: "complex128";
  };
  /** What uint64 gives with each dtype. */
  uint64: {
    float32: "float64";
    float64: "float64";
    float16: "float64";
    bfloat16: "float64";
    int8: "float64";
    uint8: "uint64";
    int16: "float64";
    uint16: "uint64";
    int32: "float64";
    uint32: "uint64";
    int64: "float64";
    uint64: "uint64";
    bool: "uint64";
    complex64: "complex128";
    complex128: "complex128";
  };
  /** What bool gives with each dtype. */
  bool: {
    float32: "float32";
    float64: "float64";
    float16: "float16";
    bfloat16: "bfloat16";
    int8: "int8";
    uint8: "uint8";
    int16: "int16";
    uint16: "uint16";
    int32: "int32";
    uint32: "uint32";
    int64: "int64";
    uint64: "uint64";
    bool: "bool";
    complex64: "complex64";
    complex128: "complex128";
  };
  /** What complex64 gives with each dtype. */
  complex64: {
    float32: "complex64";
    float64: "complex128";
    float16: "complex64";
    bfloat16: "complex64";
    int8: "complex64";
    uint8: "complex64";
    int16: "complex64";
    uint16: "complex64";
    int32: "complex128";
    uint32: "complex128";
    int64: "complex128";
    uint64: "complex128";
    bool: "complex64";
    complex64: "complex64";
    complex128: "complex128";
  };
  /** What complex128 gives with each dtype. */
  complex128: {
    float32: "complex128";
    float64: "complex128";
    float16: "complex128";
    bfloat16: "complex128";
    int8: "complex128";
    uint8: "complex128";
    int16: "complex128";
    uint16: "complex128";
    int32: "complex128";
    uint32: "complex128";
    int64: "complex128";
    uint64: "complex128";
    bool: "complex128";
    complex64: "complex128";
    complex128: "complex128";
  };
}
