/**
 * `start.first_result`: the whole-process wall time of each producer's start-to-first-result program
 * (bench/README.md says what they do), the programs interleaved so that drift hits all alike.
 * @module
 */
import { join } from "node:path";
import type { BenchRecord, Impl, ProducerStatus } from "./records.ts";
import { pinned } from "./machine.ts";
import { log, ROOT, run, why } from "./processes.ts";
import { type Blocker, exists } from "./prepare.ts";
import { DENO, type Producer } from "./producers.ts";

const FIRST_RESULT_RUNS = 5;

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

/** Times the start-to-first-result programs of the producers that have one and could run (`blockers`). */
export async function firstResults(
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
