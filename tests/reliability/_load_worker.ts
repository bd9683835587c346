/** A Worker of `load_test.ts`: runs the load task on `{ backend, id, rounds }` and posts "ok" or the error. */
import * as ga from "../../src/array/mod.ts";
import { COLS, task } from "./_load_task.ts";

const scope = self as unknown as {
  onmessage: (event: MessageEvent<{ backend: ga.BackendName; id: number; rounds: number }>) => void;
  postMessage(reply: string): void;
};

scope.onmessage = async (event) => {
  const { backend, id, rounds } = event.data;
  try {
    ga.useBackend(backend);
    using eye = ga.eye(COLS, "float64");
    await task(id, eye, rounds);
    scope.postMessage("ok");
  } catch (e) {
    scope.postMessage(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
  }
};
