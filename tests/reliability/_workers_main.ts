/**
 * One round of the Workers test, in a process of its own (a device is initialised once per process,
 * so only a fresh process starts it from several threads at once): starts 4 Workers together, each
 * importing the array module and computing on the backend named by the first argument, checks every
 * result against the host, and prints one JSON line `{ ok, failures, devices }`; its exit code is 1 on a
 * failure.
 *
 * Run: `deno run -A tests/reliability/_workers_main.ts opencl`.
 */
import { workerInput, type WorkerJob, type WorkerReply } from "./_workers_data.ts";

const WORKERS = 4;
const backend = Deno.args[0];
if (backend !== "cuda" && backend !== "opencl") {
  console.error("Usage: _workers_main.ts cuda|opencl");
  Deno.exit(2);
}

function check(seed: number, reply: WorkerReply): string | undefined {
  if ("error" in reply) return `Worker ${seed}: ${reply.error}`;
  const x = workerInput(seed);
  let total = 0;
  for (let i = 0; i < x.length; i++) {
    const want = x[i]! * x[i]! + 1;
    total += want;
    if (reply.squares[i] !== want) {
      return `Worker ${seed}: element ${i} is ${reply.squares[i]}, the host gives ${want}`;
    }
  }
  if (reply.squares.length !== x.length) {
    return `Worker ${seed}: ${reply.squares.length} elements, not ${x.length}`;
  }
  if (reply.total !== total) return `Worker ${seed}: sum ${reply.total}, the host gives ${total}`;
  if (!reply.device.startsWith(`${backend}:`)) {
    return `Worker ${seed}: computed on ${reply.device}, not ${backend}`;
  }
  return undefined;
}

const workers = Array.from(
  { length: WORKERS },
  () => new Worker(new URL("./_workers_worker.ts", import.meta.url), { type: "module" }),
);
const replies = workers.map((worker, seed) =>
  new Promise<WorkerReply>((resolve) => {
    worker.onmessage = (e: MessageEvent<WorkerReply>) => resolve(e.data);
    worker.onerror = (e) => {
      e.preventDefault();
      resolve({ error: `uncaught: ${e.message}` });
    };
    worker.postMessage({ backend, seed } satisfies WorkerJob);
  })
);
const results = await Promise.all(replies);
workers.forEach((w) => w.terminate());
const failures = results.map((r, seed) => check(seed, r)).filter((f) => f !== undefined);
const devices = [...new Set(results.flatMap((r) => "device" in r ? [r.device] : []))];
console.log(JSON.stringify({ ok: failures.length === 0, failures, devices }));
// No Deno.exit(): exiting while terminated Workers still wind down (the CUDA driver with them) crashed
// one process in 100 on the H200 after every result was right; the process ends once they are gone.
Deno.exitCode = failures.length === 0 ? 0 : 1;
