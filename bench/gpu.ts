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
 *
 * This module is the command line and the run; the producers are in producers.ts (what each needs, and
 * the C builds, in prepare.ts), the machine in machine.ts, start-to-first-result in first_results.ts,
 * the log and the child processes in processes.ts.
 * @module
 */
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import type { BenchRecord, ProducerStatus, Results } from "./records.ts";
import { writeReport } from "./report.ts";
import { BENCH, log, openLog } from "./processes.ts";
import { inspectMachine } from "./machine.ts";
import { type Blocker, BUILD } from "./prepare.ts";
import { type Producer, PRODUCERS, runProducer } from "./producers.ts";
import { firstResults } from "./first_results.ts";

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
