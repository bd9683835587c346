/**
 * One Worker of `_workers_main.ts`: imports the array module as it starts (beside three others doing
 * the same), then on the message `{ backend, seed }` computes on that backend and posts the results
 * back for the parent to check against the host.
 */
import * as ga from "../../src/array/mod.ts";
import { workerInput, type WorkerJob, type WorkerReply } from "./_workers_data.ts";

/** The Worker's side of `postMessage()` (this file is checked with the window's types). */
const scope = self as unknown as {
  onmessage: (event: MessageEvent<WorkerJob>) => void;
  postMessage(reply: WorkerReply): void;
};

scope.onmessage = (event) => {
  const { backend, seed } = event.data;
  try {
    ga.useBackend(backend);
    const x = ga.toGpu(workerInput(seed));
    const squares = ga.add(ga.mul(x, x), 1); // x² + 1, exact in float32 for these small integers
    const total = ga.sum(squares);
    const reply: WorkerReply = { device: ga.backendDevice(), squares: squares.get(), total };
    scope.postMessage(reply);
  } catch (e) {
    scope.postMessage(
      { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) } satisfies WorkerReply,
    );
  }
};
