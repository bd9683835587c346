/**
 * NCCL, NVIDIA's collective communication library (`libnccl.so.2`): the symbols cudeno binds and
 * where to find the library. `ncclComm_t` and `cudaStream_t` are `"pointer"`; buffers are device
 * addresses (`"u64"`); `size_t` counts are `"usize"`; every result is an `ncclResult_t` (`"i32"`).
 *
 * @module
 */

import { LazyLibrary, pythonWheelDirs } from "./load.ts";

/** `ncclUniqueId`: 128 opaque bytes, passed by value to `ncclCommInitRank`. */
const UNIQUE_ID = { struct: Array.from({ length: 16 }, () => "u64" as const) } as const;

/** The NCCL functions cudeno calls. */
export const NCCL_SYMBOLS = {
  ncclGetVersion: { parameters: ["buffer"], result: "i32" }, // int *version
  ncclGetErrorString: { parameters: ["i32"], result: "pointer" }, // ncclResult_t → const char *
  ncclGetLastError: { parameters: ["pointer"], result: "pointer" }, // ncclComm_t (may be NULL) → const char *
  ncclGetUniqueId: { parameters: ["buffer"], result: "i32" }, // ncclUniqueId *uniqueId
  ncclCommInitAll: { parameters: ["buffer", "i32", "buffer"], result: "i32" }, // ncclComm_t *comms, int ndev, const int *devlist
  ncclCommInitRank: { parameters: ["buffer", "i32", UNIQUE_ID, "i32"], result: "i32" }, // ncclComm_t *comm, int nranks, ncclUniqueId commId, int rank
  ncclCommDestroy: { parameters: ["pointer"], result: "i32" }, // ncclComm_t
  ncclCommCount: { parameters: ["pointer", "buffer"], result: "i32" }, // ncclComm_t, int *count
  ncclCommCuDevice: { parameters: ["pointer", "buffer"], result: "i32" }, // ncclComm_t, int *device
  ncclCommUserRank: { parameters: ["pointer", "buffer"], result: "i32" }, // ncclComm_t, int *rank
  ncclAllReduce: { parameters: ["u64", "u64", "usize", "i32", "i32", "pointer", "pointer"], result: "i32" }, // const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t, ncclRedOp_t, ncclComm_t, cudaStream_t
  ncclBroadcast: { parameters: ["u64", "u64", "usize", "i32", "i32", "pointer", "pointer"], result: "i32" }, // const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t, int root, ncclComm_t, cudaStream_t
  ncclReduceScatter: {
    parameters: ["u64", "u64", "usize", "i32", "i32", "pointer", "pointer"],
    result: "i32",
  }, // const void *sendbuff, void *recvbuff, size_t recvcount, ncclDataType_t, ncclRedOp_t, ncclComm_t, cudaStream_t
  ncclAllGather: { parameters: ["u64", "u64", "usize", "i32", "pointer", "pointer"], result: "i32" }, // const void *sendbuff, void *recvbuff, size_t sendcount, ncclDataType_t, ncclComm_t, cudaStream_t
  ncclGroupStart: { parameters: [], result: "i32" },
  ncclGroupEnd: { parameters: [], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** NCCL, opened on first use. */
export const libnccl: LazyLibrary<typeof NCCL_SYMBOLS> = new LazyLibrary(() => ({
  what: "NCCL (libnccl.so.2)",
  env: "CUDENO_LIBNCCL",
  sonames: ["libnccl.so.2"],
  dirs: [
    "/usr/lib/x86_64-linux-gnu",
    "/usr/local/cuda/lib64",
    "/usr/lib64",
    ...pythonWheelDirs({ linux: ["nccl/lib"], windows: [] }),
  ],
  hint: "install NCCL (apt: libnccl2; pip: nvidia-nccl-cu13)",
  symbols: NCCL_SYMBOLS,
}));
