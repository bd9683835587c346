/**
 * Messages that quote user input on one line.
 *
 * @module
 */

/**
 * `text` with its control characters and line breaks shown as their Unicode pictures (`␊` for a
 * newline), one for one, so that a message quoting input stays on one line and columns still line up.
 *
 * @example
 * ```ts
 * import { oneLine } from "./one_line.ts";
 * console.log(oneLine("a\nb")); // "a␊b"
 * ```
 */
export function oneLine(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (code < 0x20) out += String.fromCharCode(0x2400 + code);
    else if (code === 0x7f) out += "\u2421";
    else if (code === 0x85 || code === 0x2028 || code === 0x2029) out += "\u2424";
    else out += char;
  }
  return out;
}
