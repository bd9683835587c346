/**
 * What a step being traced by `ga.compile` tells the layers below it. While a trace is in progress the
 * backend records device work instead of running it (a CUDA graph, a list of OpenCL commands), so host
 * reads, random draws from a moving stream and new optimizer state are refused with `ga.compile`
 * named; and host work that must happen at every step (an optimizer's step count and the scalars it
 * derives from it and from the learning rate) is kept as a hook that runs before each replay.
 *
 * @module
 */

/**
 * A check a trace could not make on the host (whether an index was in range): the device sets a flag,
 * and the compiled step reads it at its next call, so the host does not wait for each step.
 */
export interface DeferredCheck {
  /** Reads the flag (waiting for the step that set it) and clears it: whether the check failed. */
  readonly failed: () => boolean;
  /** What went wrong, in the user's terms. */
  readonly message: string;
}

/** A trace in progress: the hooks to run before each replay of what it records, and its checks. */
export interface Trace {
  /** Host work to redo before each replay, in the order it was registered. */
  readonly hooks: (() => void)[];
  /** Checks of each replay's results, made at the next call. */
  readonly checks: DeferredCheck[];
  /** Hands a random draw a device word of the compiled step's own for its counter (`reserve()`). */
  readonly counter?: () => unknown;
}

let active: Trace | undefined;
let recordings = 0;

/**
 * Runs `fn` as a backend's recording (`Backend.record`): while it runs, scratch memory is not kept
 * between launches (`keptScratch`), since a replay must not use buffers a later call replaces.
 */
export function asRecording<T>(fn: () => T): T {
  recordings++;
  try {
    return fn();
  } finally {
    recordings--;
  }
}

/** Whether a backend is recording (in this Worker). */
export function recordingInProgress(): boolean {
  return recordings !== 0;
}

/** Whether a `ga.compile` trace is in progress (in this Worker). */
export function tracing(): boolean {
  return active !== undefined;
}

/**
 * Runs `fn` as a trace and returns the hooks it registered with {@link onReplay} and the checks it
 * deferred with {@link deferCheck}.
 *
 * @throws {TypeError} inside another trace (a compiled step calling another compiled step).
 */
export function traced(fn: () => void, counter?: () => unknown): Trace {
  if (active !== undefined) {
    throw new TypeError(
      "Cannot compile a step inside another step being compiled: call the inner function directly, the outer compile covers it",
    );
  }
  const trace: Trace = { hooks: [], checks: [], counter };
  active = trace;
  try {
    fn();
  } finally {
    active = undefined;
  }
  return trace;
}

/**
 * In a trace, a device word of the compiled step's own that a random draw reads its first counter from
 * (written by the draw's hook before each replay); undefined outside a trace.
 */
export function counterWord(): unknown {
  return active?.counter?.();
}

/**
 * Keeps `check` to make after each replay of the trace in progress (at the compiled step's next call)
 * and returns true; outside a trace returns false, and the caller checks now.
 */
export function deferCheck(check: DeferredCheck): boolean {
  if (active === undefined) return false;
  active.checks.push(check);
  return true;
}

/**
 * Keeps `hook` to run before each replay of the trace in progress and returns true; outside a trace
 * returns false, and the caller runs the work now. A hook queues its device work (a small kernel
 * writing the step's scalars) ahead of the replayed step on the same stream or queue.
 */
export function onReplay(hook: () => void): boolean {
  if (active === undefined) return false;
  active.hooks.push(hook);
  return true;
}

/**
 * Throws, while a trace is in progress, `Cannot <action> inside a step being compiled by ga.compile(): <why>; <fix>`.
 *
 * @throws {TypeError} naming the call and how to do without it.
 */
export function refuseInCompile(action: string, why: string, fix: string): void {
  if (active === undefined) return;
  throw new TypeError(`Cannot ${action} inside a step being compiled by ga.compile(): ${why}; ${fix}`);
}

/**
 * Throws, while a trace or a backend's recording is in progress, the error for a host read: `call`
 * returns a value to the host, or, with `reads`, reads that on the host to go on (see
 * `Backend.checkHostRead`).
 *
 * @throws {TypeError} naming the call and `ga.compile`.
 */
export function refuseHostRead(call: string, reads?: string): void {
  if (active === undefined && recordings === 0) return;
  const action = reads === undefined
    ? `return the result of ${call} to the host`
    : `run ${call}, which reads ${reads} on the host,`;
  throw new TypeError(
    `Cannot ${action} inside a step being compiled by ga.compile(): the compiled step records its device work to replay it at every call, so nothing has run yet and the JavaScript around it does not run again; return the array from the step and read it after the call`,
  );
}
