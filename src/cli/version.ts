/**
 * cudeno's version, as deno.json gives it (a test keeps the two equal).
 *
 * @module
 */

/**
 * The package version; generated type modules import `jsr:@cudeno/cudeno@^VERSION` by default.
 *
 * @example
 * ```ts
 * import { PACKAGE_VERSION } from "./version.ts";
 * console.log(PACKAGE_VERSION); // "0.1.0"
 * ```
 */
export const PACKAGE_VERSION = "0.1.0";
