// Seeded fuzzing of the two parsers that read user input: the `--arg` language and `.npy` files. Every
// case must either give a valid result or throw a UsageError, quickly. Set CUDENO_FUZZ_SEED to explore
// other seeds; a failure names the seed and the case to reproduce it.

import assert from "node:assert/strict";
import { type DType, DTYPES } from "../../src/kernel/dtype.ts";
import { roundBfloat16 } from "../../src/kernel/bfloat16.ts";
import { NpyError, readNpy, writeNpy } from "../../src/kernel/npy.ts";
import { UsageError } from "../../src/cli/usage_error.ts";
import { type ArgExpr, parseArgValue, splitAssignment } from "../../src/cli/values.ts";
import { evaluateScalar } from "../../src/cli/evaluate.ts";
import { materializeArray } from "../../src/cli/materialize.ts";

const CASES = 100_000;
const SEED = Number(Deno.env.get("CUDENO_FUZZ_SEED") ?? 20240601);
const SLOW_MS = 250;
const MAX_ELEMENTS = 4096;

/** mulberry32: a small seeded generator for the test's own choices. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  return { next, int, pick };
}

type Random = ReturnType<typeof generator>;

const DTYPE_NAMES = (Object.keys(DTYPES) as DType[]).filter((d) => DTYPES[d].kind !== "complex");

/** Runs one case, failing on anything but a UsageError (or NpyError) and on a case slower than SLOW_MS. */
function run(label: string, input: unknown, body: () => void): "ok" | "usage" {
  const start = performance.now();
  let outcome: "ok" | "usage" = "ok";
  try {
    body();
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof NpyError)) {
      assert.fail(`${label}: ${Deno.inspect(input)} threw ${error instanceof Error ? error.stack : error}`);
    }
    assert.ok(!/[\n\r\u2028\u2029]/.test(error.message), `${label}: a message of more than one line`);
    assert.ok(!error.message.endsWith("."), `${label}: ${error.message}`);
    outcome = "usage";
  }
  const elapsed = performance.now() - start;
  assert.ok(elapsed < SLOW_MS, `${label}: ${Deno.inspect(input)} took ${elapsed.toFixed(0)} ms`);
  return outcome;
}

// ---------------------------------------------------------------------------------------------------------
// The --arg language

const VALID_ARGS = [
  "1048576",
  "2.5",
  "1e-3",
  "0x10",
  "-4",
  "n/2",
  "n * m + 1",
  "(n + 1) % 7",
  "1 << 20",
  "2**63 - 1",
  "~0 & 0xff",
  "-(m % 3) * 0x10",
  "half * 2 ** -3",
  "big >> 3 | 1",
  "rand(n)",
  "randn(h, w)",
  "zeros(h, w)",
  "ones(m)",
  "arange(n)",
  "full(h, w, 2.5)",
  "full(n, half)",
  "linspace(0, 1, m)",
  "linspace(-half, big, 3)",
  "@a.npy",
  "@broken.npy",
  "@missing.npy",
];
const TOKENS = [
  ..."0123456789",
  "255",
  "2.5",
  "1e3",
  "1e-3",
  "1e400",
  ".5",
  "5.",
  "0x1F",
  "0x",
  "007",
  "9007199254740993",
  "99999999999999999999999",
  "n",
  "m",
  "h",
  "w",
  "half",
  "big",
  "neg",
  "x",
  "q",
  "rand",
  "randn",
  "zeros",
  "ones",
  "arange",
  "full",
  "linspace",
  "sqrt",
  ..."+-*/%&|^~(),.@=e_ ",
  "**",
  "<<",
  ">>",
  "//",
  "\t",
  "\n",
  "é",
  "✓",
  "\u0000",
  "😀",
  "a.npy",
];
const CHARS = "0123456789abcdefxnmhw+-*/%&|^~(),.@=e_ \t\"'$#[]{}<>!?:;\\é✓😀";

function argInput(random: Random): string {
  const strategy = random.int(4);
  if (strategy === 0) return Array.from({ length: 1 + random.int(12) }, () => random.pick(TOKENS)).join("");
  if (strategy === 1) return Array.from({ length: random.int(40) }, () => random.pick([...CHARS])).join("");
  let text = random.pick(VALID_ARGS);
  for (let k = strategy === 2 ? 1 + random.int(4) : random.int(2); k > 0; k--) {
    const at = random.int(text.length + 1);
    const mutation = random.int(6);
    if (mutation === 0) text = text.slice(0, at) + text.slice(at + 1);
    else if (mutation === 1) text = text.slice(0, at) + random.pick(TOKENS) + text.slice(at);
    else if (mutation === 2) text = text.slice(0, at) + random.pick([...CHARS]) + text.slice(at + 1);
    else if (mutation === 3) {
      text = text.slice(0, at) + text.slice(random.int(text.length + 1)) + text.slice(at);
    } else if (mutation === 4) text = text.slice(0, at);
    else text = `(${text})`;
  }
  return text;
}

const ENV = new Map<string, number | bigint | Float32Array>([
  ["n", 16],
  ["m", 5],
  ["h", 3],
  ["w", 4],
  ["half", 0.5],
  ["big", 2n ** 63n],
  ["neg", -3],
  ["x", new Float32Array(4)],
]);

function checkScalar(value: number | bigint, dtype: DType): void {
  const info = DTYPES[dtype];
  if (info.kind === "float") {
    assert.equal(typeof value, "number");
    assert.ok(Number.isFinite(value), `${value} for ${dtype}`);
    const stored = new info.array(1) as Float64Array;
    stored[0] = value as number;
    const representable = dtype === "bfloat16" ? roundBfloat16(value as number) : stored[0];
    assert.equal(representable, value, `${value} is not a ${dtype}`);
  } else if (info.size === 8) {
    assert.equal(typeof value, "bigint");
    const stored = new info.array(1) as BigInt64Array;
    stored[0] = value as bigint;
    assert.equal(stored[0], value, `${value} does not fit ${dtype}`);
  } else {
    assert.equal(typeof value, "number");
    const stored = new info.array(1) as Int32Array;
    stored[0] = value as number;
    assert.equal(stored[0], value, `${value} does not fit ${dtype}`);
  }
}

/** The element count a generator would make, or Infinity when that is too many to make cheaply. */
function elements(expr: ArgExpr & { kind: "generator" }): number {
  const sizes = expr.name === "full"
    ? expr.args.slice(0, -1)
    : expr.name === "linspace"
    ? expr.args.slice(2)
    : expr.args;
  let count = 1;
  for (const size of sizes) {
    try {
      count *= Math.abs(Number(evaluateScalar(size, ENV, { dtype: "float64", param: "size" })));
    } catch {
      return 0; // materializeArray() reports the same error before allocating
    }
  }
  return count;
}

function readArgFile(random: Random, npyCorpus: Uint8Array[]): (path: string) => Uint8Array {
  return (path) => {
    if (path === "missing.npy") throw new Deno.errors.NotFound(path);
    const file = random.pick(npyCorpus);
    return path === "broken.npy" ? mutateNpy(random, file) : file;
  };
}

Deno.test(`the --arg parser and evaluator give a value or a UsageError for ${CASES} fuzzed inputs`, () => {
  const random = generator(SEED);
  const corpus = npyCorpus(generator(SEED + 1));
  const tally = { parsed: 0, usage: 0, scalars: 0, arrays: 0 };
  for (let i = 0; i < CASES; i++) {
    const text = argInput(random);
    const dtype = random.pick(DTYPE_NAMES);
    const label = `seed ${SEED}, case ${i}, ${dtype}`;
    const outcome = run(label, text, () => {
      const { name, value } = splitAssignment(`v=${text}`);
      const expr = parseArgValue(value, name);
      assert.equal(expr.source, value);
      tally.parsed++;
      if (expr.kind !== "generator" && expr.kind !== "file") {
        checkScalar(evaluateScalar(expr, ENV, { dtype, param: "v" }), dtype);
        tally.scalars++;
        return;
      }
      if (expr.kind === "generator" && elements(expr) > MAX_ELEMENTS) return;
      const seed = random.pick([0, 1, -1, 2n ** 64n + 5n, 0.5]);
      const { data, shape } = materializeArray(expr, ENV, { dtype, param: "v" }, {
        seed,
        readFile: readArgFile(random, corpus),
      });
      assert.ok(data instanceof DTYPES[dtype].array, label);
      assert.ok(shape.every((n) => Number.isSafeInteger(n) && n >= 0));
      assert.equal(data.length, shape.reduce((a, b) => a * b, 1));
      if (expr.kind === "generator" && expr.name === "rand" && dtype !== "bfloat16") {
        assert.ok((data as Float32Array).every((v) => v >= 0 && v < 1));
      }
      tally.arrays++;
    });
    if (outcome === "usage") tally.usage++;
  }
  // The inputs reach every path: parse errors, evaluation errors, scalars and arrays.
  assert.ok(tally.usage > CASES / 10 && tally.parsed > CASES / 10, Deno.inspect(tally));
  assert.ok(tally.scalars > CASES / 50 && tally.arrays > CASES / 100, Deno.inspect(tally));
});

Deno.test("splitAssignment() gives a name and value or a UsageError for fuzzed inputs", () => {
  const random = generator(SEED + 2);
  for (let i = 0; i < CASES / 10; i++) {
    const text = Array.from({ length: random.int(12) }, () => random.pick([..."ab_1= \t.é"])).join("");
    run(`seed ${SEED + 2}, case ${i}`, text, () => {
      const { name, value } = splitAssignment(text);
      assert.match(name, /^[A-Za-z_][A-Za-z0-9_]*$/);
      assert.equal(value, value.trim());
    });
  }
});

// ---------------------------------------------------------------------------------------------------------
// .npy files

const DESCRS = [
  "<f4",
  "<f8",
  "<f2",
  "|i1",
  "|u1",
  "|b1",
  "<i2",
  "<u2",
  "<i4",
  "<u4",
  "<i8",
  "<u8",
  "|V2",
  "=f4",
  ">f4",
  "<c8",
  "O",
  "<U3",
  "f8",
  "",
  "<f",
  "|f4",
];

function npyCorpus(random: Random): Uint8Array[] {
  const fixtures = [...Deno.readDirSync(new URL("./fixtures/", import.meta.url))]
    .filter((entry) => entry.name.endsWith(".npy"))
    .map((entry) => Deno.readFileSync(new URL(`./fixtures/${entry.name}`, import.meta.url)));
  const written = Array.from({ length: 40 }, () => {
    const dtype = random.pick(DTYPE_NAMES);
    const shape = Array.from({ length: random.int(4) }, () => random.int(4));
    const count = shape.reduce((a, b) => a * b, 1);
    const data = new DTYPES[dtype].array(count);
    new Uint8Array(data.buffer).forEach((_, i, bytes) => bytes[i] = random.int(256));
    return writeNpy(data, shape, dtype);
  });
  return [...fixtures, ...written];
}

function randomHeader(random: Random): string {
  const value = (depth: number): string => {
    switch (random.int(depth > 2 ? 5 : 7)) {
      case 0:
        return `'${random.pick(DESCRS)}'`;
      case 1:
        return random.pick(["True", "False", "true", "None"]);
      case 2:
        return random.pick(["0", "1", "3", "-1", "12L", "99999999999999999999", "1e3", "0x10"]);
      case 3:
        return `"${random.pick(DESCRS)}"`;
      case 4:
        return random.pick(["", "'", "\\", "{", "}", ":", ",", "é"]);
      case 5:
        return `(${
          Array.from({ length: random.int(4) }, () => value(depth + 1)).join(random.pick([", ", ","]))
        }${random.pick(["", ",", ", "])})`;
      default:
        return `[${Array.from({ length: random.int(3) }, () => value(depth + 1)).join(", ")}]`;
    }
  };
  const keys = ["descr", "fortran_order", "shape", "shape", "x", "DESCR"];
  const entries = Array.from(
    { length: random.int(5) },
    () => `${random.pick(["'", '"', ""])}${random.pick(keys)}': ${value(0)}`,
  );
  return `{${entries.join(random.pick([", ", ",", " "]))}${random.pick(["", ", ", ","])}}${
    " ".repeat(random.int(70))
  }${random.pick(["\n", "", "\t"])}`;
}

function wrap(random: Random, header: string, dataLength: number): Uint8Array {
  const version = random.pick([1, 2, 3, random.int(256)]);
  const text = new TextEncoder().encode(header);
  const prefix = version === 1 ? 10 : 12;
  const file = new Uint8Array(prefix + text.length + dataLength);
  file.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, random.int(8) === 0 ? 1 : 0]);
  const length = random.int(10) === 0 ? random.int(2 ** 32) : text.length;
  if (version === 1) new DataView(file.buffer).setUint16(8, length & 0xffff, true);
  else new DataView(file.buffer).setUint32(8, length, true);
  file.set(text, prefix);
  for (let i = prefix + text.length; i < file.length; i++) file[i] = random.int(256);
  return file;
}

/** How many bytes follow the header, going by the header length field (0 if there is none). */
function dataBytes(file: Uint8Array): number {
  if (file.length < 12 || file[0] !== 0x93) return 0;
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const start = file[6] === 1 ? 10 + view.getUint16(8, true) : 12 + view.getUint32(8, true);
  return Math.max(0, file.length - start);
}

function mutateNpy(random: Random, base: Uint8Array): Uint8Array {
  let file = base.slice();
  switch (random.int(6)) {
    case 0:
      return file.subarray(0, random.int(file.length + 1));
    case 1:
      for (let k = 1 + random.int(4); k > 0; k--) {
        file[random.int(random.int(2) ? Math.min(file.length, 128) : file.length)] ^= 1 << random.int(8);
      }
      return file;
    case 2: {
      const dataStart = file.length - dataBytes(file);
      for (let k = 1 + random.int(4); k > 0; k--) {
        file[random.int(2) ? dataStart + random.int(file.length - dataStart) : random.int(file.length)] =
          random.int(256);
      }
      return file;
    }
    case 3: {
      const at = random.int(Math.min(file.length, 128) + 1);
      const inserted = Array.from(
        { length: 1 + random.int(8) },
        () => random.pick([...":,'()[]{} \n0123456789LTrueFalse"]).charCodeAt(0),
      );
      file = new Uint8Array([...file.subarray(0, at), ...inserted, ...file.subarray(at + random.int(3))]);
      return file;
    }
    case 4: {
      const shape = random.pick([[], [0], [3], [2, 2], [5, 1, 2]]);
      const count = shape.reduce((a, b) => a * b, 1);
      return wrap(
        random,
        randomHeader(random),
        random.int(2) ? count * random.pick([1, 2, 4, 8]) : random.int(64),
      );
    }
    default:
      return Uint8Array.from(
        { length: random.int(200) },
        (_, i) => i < 6 && random.int(2) ? base[i] : random.int(256),
      );
  }
}

Deno.test(`readNpy() gives an array or an NpyError for ${CASES} mutated files`, () => {
  const random = generator(SEED + 3);
  const corpus = npyCorpus(random);
  let valid = 0;
  for (let i = 0; i < CASES; i++) {
    const file = mutateNpy(random, random.pick(corpus));
    const outcome = run(`seed ${SEED + 3}, case ${i}`, file, () => {
      const { dtype, shape, data } = readNpy(file, "fuzz.npy");
      assert.ok(data instanceof DTYPES[dtype].array && data.byteOffset === 0);
      assert.ok(shape.every((n) => Number.isSafeInteger(n) && n >= 0));
      assert.equal(data.length, shape.reduce((a, b) => a * b, 1) * DTYPES[dtype].parts);
      const again = readNpy(writeNpy(data, shape, dtype));
      assert.deepEqual([again.dtype, again.shape, again.data], [dtype, shape, data]);
    });
    if (outcome === "ok") valid++;
  }
  assert.ok(valid > CASES / 50 && valid < CASES / 2, `${valid} valid files`);
});
