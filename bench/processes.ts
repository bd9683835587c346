/**
 * How bench/gpu.ts runs programs: its log (everything goes to stderr and to the log file, so that a run
 * on the GPU machine brings it back), child processes run in the repository root with a timeout and
 * their stderr passed through to the log, and probes of what the machine has.
 * @module
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const BENCH = fileURLToPath(new URL(".", import.meta.url));
export const ROOT = resolve(BENCH, "..");

// ---- logging

const textEncoder = new TextEncoder();
let logFile: Deno.FsFile | undefined;

/** Opens `dir`/bench.log for the run's log, emptied; returns its path. */
export function openLog(dir: string): string {
  Deno.mkdirSync(dir, { recursive: true });
  const path = join(dir, "bench.log");
  logFile = Deno.openSync(path, { create: true, write: true, truncate: true });
  return path;
}

function logRaw(bytes: Uint8Array): void {
  Deno.stderr.writeSync(bytes);
  logFile?.writeSync(bytes);
}

export function log(message: string): void {
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

/** Runs `cmd` in the repository root, killed after `timeoutS`; its stderr is logged as it comes, if `echo`. */
export async function run(cmd: string[], timeoutS: number, echo = true): Promise<Finished> {
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

/** Why a program failed, for the log and the report. */
export function why(f: Finished): string {
  if (f.timedOut) return `killed after ${f.seconds.toFixed(0)} s (timeout)`;
  return `exit code ${f.code}${f.stderrTail.trim() ? `: ${lastLines(f.stderrTail)}` : ""}`;
}

/** First line of a probe command's stdout, or null if it fails; its stderr is kept out of the log. */
export async function probe(cmd: string[]): Promise<string | null> {
  const f = await run(cmd, 120, false);
  return f.code === 0 ? f.stdout.trim().split("\n")[0] ?? "" : null;
}
