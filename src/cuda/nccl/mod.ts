/**
 * NCCL collectives over several GPUs, through the same loader as the rest of cudeno
 * (`CUDENO_LIBNCCL` overrides the search).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nccl from "@cudeno/cudeno/nccl";
 * const comms = nccl.initAll(); // one rank per GPU present
 * const parts = comms.map(() => ga.ones(1024));
 * nccl.group(() => comms.forEach((c, i) => nccl.allReduce(c, parts[i], parts[i])));
 * ```
 *
 * @module
 */

export { Communicator, initAll, initRank, uniqueId, version } from "./communicator.ts";
export {
  allGather,
  allReduce,
  broadcast,
  type CollectiveOptions,
  group,
  type ReduceOp,
  type ReduceOptions,
  reduceScatter,
} from "./collectives.ts";
export { checkNccl, NcclError } from "./errors.ts";
