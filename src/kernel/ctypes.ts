/**
 * C types of kernel parameters, as CUDA C++ and OpenCL C spell them, mapped to cudeno's DTypes.
 *
 * @module
 */

import { type DType, DTYPES } from "./dtype.ts";

/** Which C dialect a declaration is written in. */
export type Dialect = "cuda" | "opencl";

/** OpenCL address spaces a pointer parameter can point into. */
export type AddressSpace = "global" | "local" | "constant" | "private";

/**
 * A vector type passed by value: CUDA's `float3`, `int4`, `uchar4`, `__half2`; OpenCL's `float4`,
 * `int8`, `float16`. Its layout follows the headers: CUDA's `vector_types.h` aligns 2-vectors to twice
 * the element, 4-vectors to four times it (at most 16, or 32 for the `_32a` types) and 3-vectors to
 * the element alone (`float3` is 12 bytes); OpenCL aligns every vector to its size, and a 3-vector
 * takes the room of 4 (`float3` is 16 bytes).
 *
 * @example
 * ```ts
 * import { parseParameterList } from "@cudeno/cudeno/cuda";
 * const [v] = parseParameterList("float3 v", "cuda");
 * console.log(v.vector); // { element: "float32", lanes: 3, size: 12, align: 4 }
 * ```
 */
export interface VectorType {
  /** The type of each element. */
  readonly element: DType;
  /** How many elements it holds. */
  readonly lanes: number;
  /** Its size in bytes (`sizeof`). */
  readonly size: number;
  /** Its alignment in bytes. */
  readonly align: number;
}

/** One parsed parameter type. */
export interface CType {
  /** The type as written, with spacing normalised and restrict qualifiers dropped: `const float *`. */
  readonly text: string;
  /** Whether the parameter is a pointer (or an array, which C passes as a pointer). */
  readonly pointer: boolean;
  /** The scalar's type, or for a pointer the element type; undefined for `void *` and unknown types. */
  readonly dtype: DType | undefined;
  /** Whether the pointee (or the scalar) is `const`. */
  readonly isConst: boolean;
  /** For OpenCL, the address space as written (`__local` parameters are sized, not passed); else undefined. */
  readonly addressSpace: AddressSpace | undefined;
  /** The base type name without qualifiers or stars: `float`, `unsigned int`, `float4`. */
  readonly base: string;
  /** For a vector type (`float4`, `int2`), its element type and layout; undefined for other types. */
  readonly vector: VectorType | undefined;
}

const QUALIFIERS = new Set(["const", "volatile", "__grid_constant__", "struct"]);
const RESTRICT = new Set(["__restrict__", "__restrict", "restrict"]);
const ADDRESS_SPACES: Record<string, AddressSpace> = {
  __global: "global",
  global: "global",
  __local: "local",
  local: "local",
  __constant: "constant",
  constant: "constant",
  __private: "private",
  private: "private",
};

/** Single-word type names, by dialect ("long" and friends are handled by the integer rules). */
const NAMED: Record<Dialect, Record<string, DType>> = {
  cuda: {
    float: "float32",
    double: "float64",
    bool: "bool",
    half: "float16",
    __half: "float16",
    __nv_bfloat16: "bfloat16",
    nv_bfloat16: "bfloat16",
    size_t: "uint64",
    ptrdiff_t: "int64",
    int8_t: "int8",
    uint8_t: "uint8",
    int16_t: "int16",
    uint16_t: "uint16",
    int32_t: "int32",
    uint32_t: "uint32",
    int64_t: "int64",
    uint64_t: "uint64",
  },
  opencl: {
    float: "float32",
    double: "float64",
    bool: "bool",
    half: "float16",
    uchar: "uint8",
    ushort: "uint16",
    uint: "uint32",
    ulong: "uint64",
    size_t: "uint64",
    ptrdiff_t: "int64",
    intptr_t: "int64",
    uintptr_t: "uint64",
  },
};

/** The element of each vector family, as the type names spell it (`uint4` is four uint32). */
const VECTOR_ELEMENTS: Record<Dialect, Record<string, DType>> = {
  cuda: {
    char: "int8",
    uchar: "uint8",
    short: "int16",
    ushort: "uint16",
    int: "int32",
    uint: "uint32",
    long: "int64",
    ulong: "uint64",
    longlong: "int64",
    ulonglong: "uint64",
    float: "float32",
    double: "float64",
  },
  opencl: {
    char: "int8",
    uchar: "uint8",
    short: "int16",
    ushort: "uint16",
    int: "int32",
    uint: "uint32",
    long: "int64",
    ulong: "uint64",
    float: "float32",
    double: "float64",
    half: "float16",
  },
};

/** CUDA's pairs of 16-bit floats, 4 bytes aligned to 4. */
const CUDA_PAIRS: Record<string, DType> = {
  __half2: "float16",
  half2: "float16",
  __nv_bfloat162: "bfloat16",
  nv_bfloat162: "bfloat16",
};

/** The vector type a base type name stands for, or undefined. */
function vectorType(base: string, dialect: Dialect): VectorType | undefined {
  if (dialect === "cuda" && Object.hasOwn(CUDA_PAIRS, base)) {
    return { element: CUDA_PAIRS[base]!, lanes: 2, size: 4, align: 4 };
  }
  const m = dialect === "cuda"
    ? /^([a-z]+?)([1-4])(_16a|_32a)?$/.exec(base)
    : /^([a-z]+?)(2|3|4|8|16)()$/.exec(base);
  if (m === null || !Object.hasOwn(VECTOR_ELEMENTS[dialect], m[1]!)) return undefined;
  const element = VECTOR_ELEMENTS[dialect][m[1]!]!;
  const lanes = Number(m[2]);
  const bytes = DTYPES[element].size;
  if (dialect === "opencl") {
    const size = bytes * (lanes === 3 ? 4 : lanes);
    return { element, lanes, size, align: size };
  }
  if (m[3] !== undefined && (lanes !== 4 || bytes !== 8)) return undefined; // only double4_32a and its kin
  const align = lanes === 1 || lanes === 3
    ? bytes
    : lanes === 2
    ? 2 * bytes
    : m[3] === "_32a"
    ? 32
    : Math.min(4 * bytes, 16);
  return { element, lanes, size: Math.ceil((lanes * bytes) / align) * align, align };
}

const INTEGER_WORDS = new Set(["signed", "unsigned", "char", "short", "int", "long"]);

function integerType(words: readonly string[]): DType | undefined {
  if (words.length === 0 || !words.every((w) => INTEGER_WORDS.has(w))) return undefined;
  const count = (w: string) => words.filter((x) => x === w).length;
  const unsigned = count("unsigned");
  const signed = count("signed");
  const longs = count("long");
  const char = count("char");
  const short = count("short");
  const int = count("int");
  if (unsigned + signed > 1 || longs > 2 || char + short > 1 || int > 1) return undefined;
  if (char === 1) return longs === 0 && int === 0 ? (unsigned ? "uint8" : "int8") : undefined;
  if (short === 1) return longs === 0 ? (unsigned ? "uint16" : "int16") : undefined;
  if (longs > 0) return unsigned ? "uint64" : "int64"; // LP64: long is 64-bit in CUDA on Linux and in OpenCL
  return unsigned ? "uint32" : "int32";
}

/**
 * Parses the type part of one parameter declaration (`const float *__restrict__`, `unsigned int`,
 * `__global const float *`).
 *
 * @throws {SyntaxError} when the text is not a type.
 */
export function parseCType(source: string, dialect: Dialect): CType {
  const text = source.replace(/\s+/g, " ").trim();
  const tokens = text.match(/[A-Za-z_][A-Za-z0-9_]*|\*|&|\S/g) ?? [];
  let depth = 0;
  let isConst = false;
  let addressSpace: AddressSpace | undefined;
  const words: string[] = [];
  const written: string[] = [];
  for (const token of tokens) {
    if (token === "*") {
      depth++;
      written.push("*");
    } else if (RESTRICT.has(token)) {
      continue;
    } else if (Object.hasOwn(ADDRESS_SPACES, token) && dialect === "opencl") {
      addressSpace = ADDRESS_SPACES[token];
      written.push(token);
    } else if (QUALIFIERS.has(token)) {
      if (token === "const" && depth === 0) isConst = true;
      written.push(token);
    } else if (/^[A-Za-z_]/.test(token)) {
      if (depth > 0) throw new SyntaxError(`Cannot parse type "${text}": "${token}" after "*"`);
      words.push(token);
      written.push(token);
    } else {
      throw new SyntaxError(`Cannot parse type "${text}": unexpected "${token}"`);
    }
  }
  if (words.length === 0) throw new SyntaxError(`Cannot parse type "${text}": no type name`);
  const base = words.join(" ");
  const dtype = words.length === 1 && Object.hasOwn(NAMED[dialect], base)
    ? NAMED[dialect][base]
    : integerType(words);
  return {
    text: written.join(" ").replaceAll("* *", "**"),
    pointer: depth > 0,
    dtype,
    isConst,
    addressSpace,
    base,
    vector: words.length === 1 ? vectorType(base, dialect) : undefined,
  };
}
