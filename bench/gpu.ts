/**
 * `deno task bench:gpu`: builds the C baselines, runs every producer of benchmark records in turn (C, OpenCL C,
 * CuPy, PyTorch, cudeno), times start-to-first-result, writes results.json and renders the report.
 *
 *   deno task bench:gpu [--only c,opencl-c,cupy,torch,cudeno] [--sections sort,scan] [--out DIR] [--timeout-s N]
 *
 * `--sections` runs only the named sections of the suites (prefixes of cudeno's suite sections, which
 * the Python producers share; `start` for the start-to-first-result runs), through `BENCH_SECTIONS`.
 *
 * A producer that cannot run here is reported as skipped, with the reason; one that breaks is reported as
 * failed, and the run exits 1. Either way it is said on stderr and in RESULTS.md, never silently dropped.
 * @module
 */
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type BenchRecord, type Impl, type ProducerStatus, type Results, toRecord } from "./records.ts";
import { writeReport } from "./report.ts";

const BENCH = fileURLToPath(new URL(".", import.meta.url));
const ROOT = resolve(BENCH, "..");
const BUILD = join(BENCH, "build");
const CUDA_HOME = Deno.env.get("CUDA_HOME") ?? "/usr/local/cuda";
// .device/on-device.sh unpacks Debian's ICD loader here, with a vendors file naming NVIDIA's driver: the
// loader the baseline's OpenCL figures were measured through on the GPU machine.
const CARRIED_OPENCL = "/tmp/ocl/usr/lib/x86_64-linux-gnu";
const FIRST_RESULT_RUNS = 5;

// ---- logging: everything goes to stderr and to the log file, so that a run on the GPU machine brings it back

const textEncoder = new TextEncoder();
let logFile: Deno.FsFile | undefined;

function openLog(dir: string): string {
  Deno.mkdirSync(dir, { recursive: true });
  const path = join(dir, "bench.log");
  logFile = Deno.openSync(path, { create: true, write: true, truncate: true });
  return path;
}

function logRaw(bytes: Uint8Array): void {
  Deno.stderr.writeSync(bytes);
  logFile?.writeSync(bytes);
}

function log(message: string): void {
  logRaw(textEncoder.encode(`[bench] ${message}\n`));
}

// ---- running programs

interface Finished {
  code: number;
  stdout: string;
  stderrTail: string;
  seconds: number;
  timedOut: boolean;
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<string> {
  return await new Response(stream).text();
}

/** Passes a child's stderr through as it comes (long producers show progress) and keeps its end. */
async function relay(stream: ReadableStream<Uint8Array>, echo: boolean): Promise<string> {
  const decoder = new TextDecoder();
  let tail = "";
  for await (const chunk of stream) {
    if (echo) logRaw(chunk);
    tail = (tail + decoder.decode(chunk, { stream: true })).slice(-4000);
  }
  return tail;
}

async function run(cmd: string[], timeoutS: number, echo = true): Promise<Finished> {
  const t0 = performance.now();
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(cmd[0], {
      args: cmd.slice(1),
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (e) {
    return { code: 127, stdout: "", stderrTail: `cannot start ${cmd[0]}: ${e}`, seconds: 0, timedOut: false };
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, timeoutS * 1000);
  const [stdout, stderrTail] = await Promise.all([collect(child.stdout), relay(child.stderr, echo)]);
  const status = await child.status;
  clearTimeout(timer);
  return { code: status.code, stdout, stderrTail, seconds: (performance.now() - t0) / 1000, timedOut };
}

function lastLines(text: string, n = 3): string {
  return text.trim().split("\n").slice(-n).join(" | ");
}

function why(f: Finished): string {
  if (f.timedOut) return `killed after ${f.seconds.toFixed(0)} s (timeout)`;
  return `exit code ${f.code}${f.stderrTail.trim() ? `: ${lastLines(f.stderrTail)}` : ""}`;
}

/** First line of a probe command's stdout, or null if it fails; its stderr is kept out of the log. */
async function probe(cmd: string[]): Promise<string | null> {
  const f = await run(cmd, 120, false);
  return f.code === 0 ? f.stdout.trim().split("\n")[0] ?? "" : null;
}

// ---- the machine

interface Machine {
  gpu: string | null;
  driver: string | null;
  versions: Record<string, string | null>;
  /** How the producers are placed on the host's CPUs, as the report says it. */
  placement: string;
  /** The CPU list every producer runs on (`taskset -c`), or null where they are not pinned. */
  cpus: string | null;
}

async function readText(path: string): Promise<string | null> {
  try {
    return (await Deno.readTextFile(path)).trim();
  } catch {
    return null;
  }
}

/**
 * Pins every producer to the CPUs of the GPU's NUMA node, where the host has more than one node: a
 * pageable copy runs through the CPU and is slower from memory on the far node, so unpinned producers
 * would differ by where the scheduler put them, not by what they do.
 */
async function placeProducers(): Promise<{ placement: string; cpus: string | null }> {
  const busId = await probe(["nvidia-smi", "--query-gpu=pci.bus_id", "--format=csv,noheader"]);
  // nvidia-smi says 00000000:19:00.0; sysfs names the device 0000:19:00.0, in lower case.
  const sysfs = busId ? `/sys/bus/pci/devices/${busId.slice(-12).toLowerCase()}` : null;
  const node = sysfs ? Number(await readText(`${sysfs}/numa_node`) ?? "-1") : -1;
  const entries = await Array.fromAsync(Deno.readDir("/sys/devices/system/node")).catch(() => []);
  const nodes = entries.filter((e) => /^node\d+$/.test(e.name)).length;
  if (nodes < 2) return { placement: "producers not pinned (one NUMA node)", cpus: null };
  if (node < 0) return { placement: "producers not pinned (the GPU's NUMA node is not known)", cpus: null };
  const cpus = await readText(`/sys/devices/system/node/node${node}/cpulist`);
  if (!cpus || (await probe(["taskset", "-c", cpus, "true"])) === null) {
    return {
      placement: `producers not pinned (taskset to node ${node}'s CPUs ${cpus ?? "?"} failed)`,
      cpus: null,
    };
  }
  return { placement: `producers pinned to CPUs ${cpus} (NUMA node ${node}, the GPU's)`, cpus };
}

function pythonVersion(module: string): Promise<string | null> {
  return probe(["python3", "-c", `import ${module}; print(${module}.__version__)`]);
}

async function inspectMachine(): Promise<Machine> {
  const smi = await probe(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"]);
  const [gpu, driver] = smi ? smi.split(",").map((s) => s.trim()) : [null, null];
  const versions: Record<string, string | null> = {
    deno: Deno.version.deno,
    gcc: await probe(["gcc", "-dumpfullversion"]),
    python: await probe(["python3", "-c", "import sys; print(sys.version.split()[0])"]),
    numpy: await pythonVersion("numpy"),
    cupy: await pythonVersion("cupy"),
    torch: await pythonVersion("torch"),
    jax: await pythonVersion("jax"),
  };
  return { gpu: gpu ?? null, driver: driver ?? null, versions, ...await placeProducers() };
}

// ---- producers

/** Why a producer cannot run: skipped (not installed here) or failed (its build broke). */
interface Blocker {
  state: "skipped" | "failed";
  reason: string;
}

interface Producer {
  name: string;
  impls: readonly Impl[];
  prepare: (m: Machine) => Promise<Blocker | null>;
  command: string[];
  /** The program whose whole-process wall time is this impl's start.first_result, if it has one; it runs
   * where the producer could be prepared, or else where the file it `needs` exists. */
  firstResult?: { impl: Impl; command: string[]; needs?: string };
}

const NO_GPU: Blocker = { state: "skipped", reason: "nvidia-smi finds no NVIDIA GPU on this machine" };

async function gcc(m: Machine, out: string, source: string, flags: string[]): Promise<Blocker | null> {
  if (m.versions.gcc === null) return { state: "skipped", reason: "gcc is not installed" };
  Deno.mkdirSync(BUILD, { recursive: true });
  const cmd = ["gcc", "-O2", "-Wall", "-Wextra", "-o", join(BUILD, out), join(BENCH, "c", source), ...flags];
  log(cmd.join(" "));
  const f = await run(cmd, 300);
  return f.code === 0 ? null : { state: "failed", reason: `build of ${source} failed: ${why(f)}` };
}

function buildCuda(m: Machine): Promise<Blocker | null> {
  if (!m.gpu) return Promise.resolve(NO_GPU);
  return gcc(m, "cuda_bench", "cuda_bench.c", [
    `-I${CUDA_HOME}/include`,
    `-L${CUDA_HOME}/lib64`,
    `-L${CUDA_HOME}/lib64/stubs`,
    "-lcuda",
    "-lnvrtc",
    "-lm",
  ]);
}

async function buildOpenCL(m: Machine): Promise<Blocker | null> {
  const carried = await exists(join(CARRIED_OPENCL, "libOpenCL.so.1"));
  const flags = carried ? [`-L${CARRIED_OPENCL}`, "-l:libOpenCL.so.1"] : ["-lOpenCL"];
  return gcc(m, "opencl_bench", "opencl_bench.c", flags);
}

function pythonBlocker(m: Machine, module: string): Blocker | null {
  if (!m.gpu) return NO_GPU;
  return m.versions[module] === null ? { state: "skipped", reason: `python3 cannot import ${module}` } : null;
}

function needsPython(module: string): (m: Machine) => Promise<Blocker | null> {
  return (m) => Promise.resolve(pythonBlocker(m, module));
}

/** JAX runs its figures only where it imports and sees a GPU (a CPU-only jaxlib is skipped). */
async function needsJaxGpu(m: Machine): Promise<Blocker | null> {
  const blocker = pythonBlocker(m, "jax");
  if (blocker) return blocker;
  const backend = await probe(["python3", "-c", "import jax; print(jax.default_backend())"]);
  return backend === "gpu"
    ? null
    : { state: "skipped", reason: `jax runs on ${backend ?? "nothing (its probe failed)"}, not a GPU` };
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function needsCudenoSuite(): Promise<Blocker | null> {
  if (await exists(join(BENCH, "cudeno", "suite.ts"))) return null;
  return { state: "skipped", reason: "bench/cudeno/suite.ts does not exist: no cudeno figures in this run" };
}

const DENO = Deno.execPath();

const PRODUCERS: Producer[] = [
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

/** `cmd` run on the CPUs `cpus` (see {@link placeProducers}), or as it is where they are null. */
function pinned(cmd: string[], cpus: string | null): string[] {
  return cpus === null ? cmd : ["taskset", "-c", cpus, ...cmd];
}

async function runProducer(
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

// ---- start.first_result: whole-process wall time, the programs interleaved so that drift hits all alike

interface Starter {
  name: string;
  impl: Impl;
  command: string[];
  ms: number[];
  failure?: string;
}

async function timeFirstResults(starters: Starter[], timeoutS: number, cpus: string | null): Promise<void> {
  for (let round = -1; round < FIRST_RESULT_RUNS; round++) { // round -1: untimed warm-up (caches, page cache)
    for (const s of starters.filter((s) => !s.failure)) {
      const f = await run(pinned(s.command, cpus), timeoutS);
      if (f.code !== 0 || f.timedOut) s.failure = `${round < 0 ? "warm-up" : `run ${round + 1}`}: ${why(f)}`;
      else if (round >= 0) s.ms.push(f.seconds * 1000);
    }
  }
}

/** A command as a person would type it in the repository root. */
function display(cmd: string[]): string {
  const short = (part: string) =>
    part === DENO ? "deno" : part.startsWith(`${ROOT}/`) ? part.slice(ROOT.length + 1) : part;
  return cmd.map(short).join(" ");
}

function starterResult(s: Starter): [ProducerStatus, BenchRecord[]] {
  if (s.failure) return [{ name: s.name, state: "failed", reason: s.failure, records: 0 }, []];
  const record: BenchRecord = {
    impl: s.impl,
    figure: "start.first_result",
    unit: "ms",
    better: "lower",
    samples: s.ms,
    note: `whole-process wall time of \`${display(s.command)}\`; ${FIRST_RESULT_RUNS} runs after a warm-up`,
  };
  return [{ name: s.name, state: "ok", records: 1 }, [record]];
}

async function firstResultBlocker(p: Producer, blocker: Blocker | null): Promise<Blocker | null> {
  const needs = p.firstResult?.needs;
  if (!needs) return blocker && { state: "skipped", reason: `${p.name}: ${blocker.reason}` };
  return (await exists(join(ROOT, needs))) ? null : { state: "skipped", reason: `${needs} does not exist` };
}

async function firstResults(
  blockers: Map<Producer, Blocker | null>,
  timeoutS: number,
  cpus: string | null,
): Promise<[ProducerStatus[], BenchRecord[]]> {
  const statuses: ProducerStatus[] = [];
  const starters: Starter[] = [];
  for (const [p, producerBlocker] of blockers) {
    if (!p.firstResult) continue;
    const name = `${p.name}/first-result`;
    const blocker = await firstResultBlocker(p, producerBlocker);
    if (blocker) statuses.push({ name, ...blocker, records: 0 });
    else starters.push({ name, impl: p.firstResult.impl, command: p.firstResult.command, ms: [] });
  }
  log(`start.first_result: ${starters.map((s) => s.name).join(", ") || "nothing to time"}`);
  await timeFirstResults(starters, timeoutS, cpus);
  const records: BenchRecord[] = [];
  for (const [status, recs] of starters.map(starterResult)) {
    statuses.push(status);
    records.push(...recs);
  }
  return [statuses, records];
}

// ---- the run

interface Options {
  only: Set<string>;
  sections?: string;
  out: string;
  timeoutS: number;
}

function usage(message: string): never {
  console.error(
    `${message}\nusage: deno task bench:gpu [--only ${PRODUCERS.map((p) => p.name).join(",")}]` +
      " [--sections PREFIXES] [--out DIR] [--timeout-s SECONDS]",
  );
  Deno.exit(2);
}

function parseFlags() {
  try {
    return parseArgs({
      args: Deno.args,
      options: {
        only: { type: "string" },
        sections: { type: "string" },
        out: { type: "string" },
        "timeout-s": { type: "string" },
      },
    });
  } catch (e) {
    return usage(e instanceof Error ? e.message : String(e));
  }
}

function options(): Options {
  const parsed = parseFlags();
  const names = PRODUCERS.map((p) => p.name);
  const only = new Set(parsed.values.only ? parsed.values.only.split(",").map((s) => s.trim()) : names);
  const unknown = [...only].filter((n) => !names.includes(n));
  if (unknown.length) usage(`unknown producer ${unknown.join(", ")}`);
  const timeoutS = Number(parsed.values["timeout-s"] ?? 400);
  if (!(timeoutS > 0)) usage("--timeout-s wants a positive number of seconds");
  return { only, sections: parsed.values.sections, out: resolve(parsed.values.out ?? BENCH), timeoutS };
}

function report(status: ProducerStatus): void {
  const detail = status.reason ? `: ${status.reason}` : "";
  const prefix = status.state === "ok" ? "" : "WARNING: ";
  log(`${prefix}${status.name} ${status.state}, ${status.records} records${detail}`);
}

async function main(): Promise<number> {
  const opts = options();
  // The producers read it (they inherit this process's environment).
  if (opts.sections !== undefined) Deno.env.set("BENCH_SECTIONS", opts.sections);
  const starts = opts.sections === undefined || opts.sections.split(",").includes("start");
  const logPath = openLog(Deno.env.get("OUT") ?? BUILD);
  log(`log: ${logPath}`);
  const machine = await inspectMachine();
  log(`GPU: ${machine.gpu ?? "none"}, driver ${machine.driver ?? "–"}; ${JSON.stringify(machine.versions)}`);
  log(machine.placement);

  const statuses: ProducerStatus[] = [];
  const records: BenchRecord[] = [];
  const blockers = new Map<Producer, Blocker | null>();
  for (const p of PRODUCERS.filter((p) => opts.only.has(p.name))) {
    const blocker = await p.prepare(machine);
    blockers.set(p, blocker);
    const [status, recs]: [ProducerStatus, BenchRecord[]] = blocker
      ? [{ name: p.name, ...blocker, records: 0 }, []]
      : await runProducer(p, opts.timeoutS, machine.cpus);
    statuses.push(status);
    records.push(...recs);
    report(status);
  }
  const [startStatuses, startRecords] = starts
    ? await firstResults(blockers, opts.timeoutS, machine.cpus)
    : [[], []];
  startStatuses.forEach(report);
  statuses.push(...startStatuses);
  records.push(...startRecords);

  const { cpus: _, ...described } = machine;
  const results: Results = { date: new Date().toISOString(), ...described, producers: statuses, records };
  const resultsPath = join(opts.out, "results.json");
  await Deno.mkdir(opts.out, { recursive: true });
  await Deno.writeTextFile(resultsPath, JSON.stringify(results, null, 2) + "\n");
  const written = await writeReport(resultsPath, opts.out);
  log(`wrote ${[resultsPath, ...written].join(", ")}`);
  // Said again last, where the end of a long log (all that a GPU run's reply carries) will show it.
  const notOk = statuses.filter((s) => s.state !== "ok").map((s) => `${s.name} ${s.state}`);
  if (notOk.length) log(`WARNING: not everything ran: ${notOk.join(", ")}`);
  if (!records.some((r) => r.impl === "cudeno")) log("WARNING: no cudeno records in this run");
  return statuses.some((s) => s.state === "failed") ? 1 : 0;
}

if (import.meta.main) Deno.exit(await main());
