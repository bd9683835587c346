/**
 * The C library's file-descriptor calls (`libc.so.6`, Linux): what cudeno needs to keep an OpenCL
 * compiler's own lines on standard error (`1 warning generated.`) away from the user while a program
 * builds. File descriptors are `"i32"`, `off_t` is `"i64"`, `size_t` is `"usize"`.
 *
 * @module
 */

import { LazyLibrary } from "./load.ts";

/** The functions cudeno calls. */
export const LIBC_SYMBOLS = {
  open: { parameters: ["buffer", "i32"], result: "i32" }, // const char *pathname, int flags
  flock: { parameters: ["i32", "i32"], result: "i32" }, // int fd, int operation
  dup: { parameters: ["i32"], result: "i32" }, // int oldfd
  dup2: { parameters: ["i32", "i32"], result: "i32" }, // int oldfd, int newfd
  close: { parameters: ["i32"], result: "i32" }, // int fd
  memfd_create: { parameters: ["buffer", "u32"], result: "i32" }, // const char *name, unsigned int flags
  lseek: { parameters: ["i32", "i64", "i32"], result: "i64" }, // int fd, off_t offset, int whence
  read: { parameters: ["i32", "buffer", "usize"], result: "isize" }, // int fd, void *buf, size_t count
} as const satisfies Deno.ForeignLibraryInterface;

/** The C library, opened on first use (Linux only: glibc 2.27 or later has `memfd_create`). */
export const libc: LazyLibrary<typeof LIBC_SYMBOLS> = new LazyLibrary(() => ({
  what: "the C library (libc.so.6)",
  env: "CUDENO_LIBC",
  sonames: ["libc.so.6"],
  dirs: [],
  hint: "use a Linux system with glibc 2.27 or later",
  symbols: LIBC_SYMBOLS,
}));
