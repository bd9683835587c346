/**
 * The producers of benchmark records (C, OpenCL C, CuPy, PyTorch, JAX, cudeno): what each needs, the
 * command that runs it, its start-to-first-result program, and one run of a producer with its records
 * taken from its stdout.
 * @module
 */
import { join } from "node:path";
import { type BenchRecord, type Impl, type ProducerStatus, toRecord } from "./records.ts";
import { type Machine, pinned } from "./machine.ts";
import { log, run, why } from "./processes.ts";
import {
  type Blocker,
  BUILD,
  buildCuda,
  buildOpenCL,
  needsCudenoSuite,
  needsJaxGpu,
  needsPython,
} from "./prepare.ts";

export interface Producer {
  name: string;
  impls: readonly Impl[];
  prepare: (m: Machine) => Promise<Blocker | null>;
  command: string[];
  /** The program whose whole-process wall time is this impl's start.first_result, if it has one; it runs
   * where the producer could be prepared, or else where the file it `needs` exists. */
  firstResult?: { impl: Impl; command: string[]; needs?: string };
}

export const DENO = Deno.execPath();

export const PRODUCERS: Producer[] = [
  {
    name: "c",
    impls: ["c"],
    prepare: buildCuda,
    command: [join(BUILD, "cuda_bench"), "all"],
    firstResult: { impl: "c", command: [join(BUILD, "cuda_bench"), "first-result"] },
  },
  { name: "opencl-c", impls: ["opencl-c"], prepare: buildOpenCL, command: [join(BUILD, "opencl_bench")] },
  {
    name: "cupy",
    impls: ["cupy"],
    prepare: needsPython("cupy"),
    command: ["python3", "bench/py/cupy_bench.py"],
    firstResult: { impl: "cupy", command: ["python3", "bench/py/cupy_first_result.py"] },
  },
  {
    name: "torch",
    impls: ["torch", "torch-compile"],
    prepare: needsPython("torch"),
    command: ["python3", "bench/py/torch_bench.py"],
  },
  {
    name: "jax",
    impls: ["jax"],
    prepare: needsJaxGpu,
    command: ["python3", "bench/py/jax_bench.py"],
  },
  {
    name: "cudeno",
    impls: ["cudeno", "deno-raw"],
    prepare: needsCudenoSuite,
    command: [DENO, "run", "-A", "bench/cudeno/suite.ts"],
    firstResult: {
      impl: "cudeno",
      command: [DENO, "run", "-A", "bench/cudeno/first_result.ts"],
      needs: "bench/cudeno/first_result.ts",
    },
  },
];

/** Records from a producer's stdout; a line that is not a valid record of its own impls is logged, not kept. */
function parseRecords(stdout: string, impls: readonly Impl[], source: string): BenchRecord[] {
  const records: BenchRecord[] = [];
  for (const [i, line] of stdout.split("\n").entries()) {
    if (!line.trim()) continue;
    let parsed: BenchRecord | string;
    try {
      parsed = toRecord(JSON.parse(line));
    } catch {
      parsed = "not JSON";
    }
    if (typeof parsed !== "string" && !impls.includes(parsed.impl)) {
      parsed = `impl ${parsed.impl} is not its own`;
    }
    if (typeof parsed === "string") {
      log(`${source}: stdout line ${i + 1} dropped (${parsed}): ${line.slice(0, 160)}`);
    } else records.push(parsed);
  }
  return records;
}

/** Runs a prepared producer (pinned to `cpus`): its status, and the records it printed. */
export async function runProducer(
  p: Producer,
  timeoutS: number,
  cpus: string | null,
): Promise<[ProducerStatus, BenchRecord[]]> {
  log(`${p.name}: ${p.command.join(" ")}`);
  const f = await run(pinned(p.command, cpus), timeoutS);
  const records = parseRecords(f.stdout, p.impls, p.name);
  const status: ProducerStatus = { name: p.name, state: "ok", seconds: f.seconds, records: records.length };
  if (f.code !== 0 || f.timedOut) {
    status.state = "failed";
    status.reason = `${why(f)}${
      records.length ? ` (its ${records.length} records before that are kept)` : ""
    }`;
  } else if (records.length === 0) {
    status.state = "failed";
    status.reason = "exited 0 but printed no record";
  }
  return [status, records];
}
