/**
 * Reads a kernel's JavaScript source (`fn.toString()`) with acorn, and maps acorn's positions to
 * positions relative to the function's text.
 *
 * @module
 */

import * as acorn from "npm:acorn@^8.14.0";
import type { JitError, SourcePosition } from "./errors.ts";

/** A function or arrow function node. */
export type FunctionNode = acorn.FunctionExpression | acorn.ArrowFunctionExpression;

/** A parsed kernel or device function. */
export interface ParsedFunction {
  /** The function node. */
  readonly node: FunctionNode;
  /** Where a node starts, relative to the function's text. */
  at(node: acorn.Node): SourcePosition;
}

const OPTIONS: acorn.Options = { ecmaVersion: "latest", locations: true, sourceType: "module" };

/**
 * Parses a function's source (`fn.toString()`): a function expression or declaration, an arrow
 * function, or an object method (`add(a, b) { ... }`, which is read inside `({ ... })`).
 *
 * @param fail builds the error for a position and a detail; `inFile` false for text that does not
 * parse, which no function written in a file has, so that its position is not looked for in one
 */
export function parseFunction(
  text: string,
  fail: (detail: string, at: SourcePosition, inFile?: boolean) => JitError,
): ParsedFunction {
  const start: SourcePosition = { line: 1, column: 1 };
  if (/\{\s*\[native code\]\s*\}\s*$/.test(text)) {
    throw fail("its source is not available (a native or bound function): pass the function itself", start);
  }
  let node: acorn.Expression | undefined;
  let failure: SyntaxError | undefined;
  try {
    node = acorn.parseExpressionAt(text, 0, OPTIONS);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    failure = e;
  }
  let shift = 0;
  if (node === undefined || !isFunction(node) || text.slice(node.end).trim() !== "") {
    const method = methodOf(text);
    if (method) [node, shift] = [method, 2];
  }
  if (node === undefined) {
    const loc = (failure as SyntaxError & { loc?: acorn.Position }).loc;
    const at = loc ? { line: loc.line, column: loc.column + 1 } : start;
    throw fail(
      `its source does not parse as JavaScript: ${failure!.message.replace(/\s*\(\d+:\d+\)$/, "")}`,
      at,
      false,
    );
  }
  const at = (n: acorn.Node): SourcePosition => {
    const loc = n.loc!.start;
    return { line: loc.line, column: loc.column + 1 - (loc.line === 1 ? shift : 0) };
  };
  if (!isFunction(node)) {
    throw fail(
      "it is not a function or an arrow function: pass `(a, b) => { ... }` or `function (a, b) { ... }`",
      start,
    );
  }
  if (node.async) throw fail("async functions are not supported: remove async", start);
  if (node.generator) throw fail("generator functions are not supported: use a plain function", start);
  return { node, at };
}

function isFunction(node: acorn.Expression): node is FunctionNode {
  return node.type === "FunctionExpression" || node.type === "ArrowFunctionExpression";
}

function methodOf(text: string): acorn.FunctionExpression | undefined {
  let node: acorn.Expression;
  try {
    node = acorn.parseExpressionAt(`({${text}})`, 0, OPTIONS);
  } catch {
    return undefined;
  }
  if (node.type !== "ObjectExpression" || node.properties.length !== 1) return undefined;
  const property = node.properties[0];
  if (property.type !== "Property" || property.kind !== "init" || !property.method) return undefined;
  return property.value as acorn.FunctionExpression;
}
