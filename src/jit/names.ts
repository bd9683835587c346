/**
 * C names for kernels, device functions and locals: JavaScript names made into C identifiers that
 * clash with no C, C++, CUDA or OpenCL keyword, type, macro or built-in function the generated code uses.
 *
 * @module
 */

const RESERVED = new Set(
  (
    // C and C++ keywords
    "auto break case char const continue default do double else enum extern float for goto if inline int long " +
    "register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while " +
    "bool true false class delete new namespace operator private protected public template this throw try catch " +
    "typename using virtual friend mutable explicit export asm alignas alignof constexpr decltype noexcept nullptr " +
    "static_assert thread_local dynamic_cast static_cast reinterpret_cast const_cast typeid wchar_t char16_t " +
    "char32_t and or not xor bitand bitor compl and_eq or_eq not_eq xor_eq main " +
    // CUDA and OpenCL names
    "threadIdx blockIdx blockDim gridDim warpSize dim3 kernel global local constant read_only write_only " +
    "read_write uniform pipe half size_t ptrdiff_t intptr_t uintptr_t uchar ushort uint ulong sampler_t event_t " +
    "image1d_t image2d_t image3d_t NULL INFINITY NAN MAXFLOAT HUGE_VAL HUGE_VALF " +
    // built-in functions the generated code calls
    "sqrt exp log sin cos tan tanh pow fabs floor ceil hypot atan2 fmod abs min max sqrtf expf logf sinf cosf " +
    "tanf tanhf powf fabsf floorf ceilf hypotf atan2f fmodf atomicAdd atomicSub atomicMax atomicMin atomicExch " +
    "atomicCAS atomic_add atomic_sub atomic_max atomic_min atomic_xchg atomic_cmpxchg barrier get_local_id " +
    "get_group_id get_local_size get_num_groups as_uint as_float"
  ).split(" "),
);

const RESERVED_PREFIX =
  /^(__|cudeno_|M_|FLT_|DBL_|CHAR_|SCHAR_|UCHAR_|SHRT_|USHRT_|INT_|UINT_|LONG_|ULONG_|CL_|CLK_)/;
const VECTOR_TYPE = /^(char|uchar|short|ushort|int|uint|long|ulong|float|double|half|bool)(2|3|4|8|16)$/;

/**
 * Makes a name a C identifier: characters C does not allow become `_`, and a name that starts with a
 * digit or clashes with a reserved word gets a `v_` prefix.
 *
 * @example
 * ```ts ignore
 * sanitizeName("my-kernel"); // "my_kernel"
 * sanitizeName("float"); // "v_float"
 * ```
 */
export function sanitizeName(name: string): string {
  const plain = name.replace(/[^A-Za-z0-9_]/g, "_");
  if (
    plain === "" || /^[0-9]/.test(plain) || RESERVED.has(plain) || RESERVED_PREFIX.test(plain) ||
    VECTOR_TYPE.test(plain)
  ) {
    return `v_${plain}`;
  }
  return plain;
}

/** Hands out distinct C names within one scope of names. */
export class Names {
  readonly #used: Set<string>;

  /** @param taken names already in use */
  constructor(taken: Iterable<string> = []) {
    this.#used = new Set(taken);
  }

  /** A fresh C name based on a JavaScript name (`i`, then `i_2`, `i_3` ...). */
  take(name: string): string {
    const base = sanitizeName(name);
    let candidate = base;
    for (let n = 2; this.#used.has(candidate); n++) candidate = `${base}_${n}`;
    this.#used.add(candidate);
    return candidate;
  }
}
