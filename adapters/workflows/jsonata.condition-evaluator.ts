import jsonata from 'jsonata';
import type { ConditionEvaluator } from '../../core/workflows/ports/step-services.port';

/**
 * JSONata functions a condition may call: comparisons, text, numbers, arrays and objects. Not `$eval`
 * (it would evaluate text taken from the data as an expression), nor anything that defines functions.
 */
const ALLOWED_FUNCTIONS = new Set([
  'string', 'length', 'substring', 'substringBefore', 'substringAfter', 'uppercase', 'lowercase', 'trim', 'pad', 'contains', 'split', 'join',
  'match', 'replace', 'number', 'abs', 'floor', 'ceil', 'round', 'power', 'sqrt', 'boolean', 'not', 'exists', 'count', 'sum', 'max', 'min',
  'average', 'append', 'sort', 'reverse', 'distinct', 'keys', 'lookup', 'type', 'startsWith', 'endsWith',
]);
/** Property names that lead from data to the JavaScript objects behind it. */
const FORBIDDEN_NAMES = new Set(['constructor', '__proto__', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);
/** Node types that define or bind functions, or reach past the data (variables other than `$` are not allowed either). */
const FORBIDDEN_TYPES = new Set(['lambda', 'partial', 'bind', 'apply', 'transform', 'parent', 'regex']);

const MAX_EXPRESSION = 1000;
const MAX_NODES = 500;

type Node = { type?: string; value?: unknown; procedure?: Node; [key: string]: unknown };

/** The first thing an expression may not do, walking its parse tree; null when it is fine. */
function refusal(node: unknown, count: { n: number }): string | null {
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = refusal(child, count);
      if (found) return found;
    }
    return null;
  }
  if (typeof node !== 'object' || node === null) return null;
  if (++count.n > MAX_NODES) return `the expression is too large (more than ${MAX_NODES} parts)`;
  const n = node as Node;
  if (n.type && FORBIDDEN_TYPES.has(n.type)) return `the expression may not use ${n.type === 'lambda' ? 'function definitions' : n.type === 'regex' ? 'regular expressions' : `"${n.type}" expressions`}`;
  if (n.type === 'name' && typeof n.value === 'string' && FORBIDDEN_NAMES.has(n.value)) return `the expression may not read "${n.value}"`;
  if (n.type === 'string' && typeof n.value === 'string' && FORBIDDEN_NAMES.has(n.value)) return `the expression may not use "${n.value}"`;
  if (n.type === 'variable' && n.value !== '' ) return `the expression may not use variables ($${String(n.value)}); read the data as input.… and steps.<id>.output.…`;
  if (n.type === 'function') {
    const proc = n.procedure;
    const name = proc && proc.type === 'variable' && typeof proc.value === 'string' ? proc.value : null;
    if (!name || !ALLOWED_FUNCTIONS.has(name)) return `the expression may not call ${name ? `$${name}` : 'that function'}`;
    return refusal(n.arguments, count);
  }
  for (const [key, value] of Object.entries(n)) {
    if (key === 'position' || key === 'token') continue;
    const found = refusal(value, count);
    if (found) return found;
  }
  return null;
}

/**
 * `condition` steps in JSONata (a kept library; no `eval`): the expression sees only `input` and
 * `steps.<id>.output`, in copies made from JSON, and its parse tree is checked first: no function
 * definitions, no variables or bindings, only pure built-in functions, and none of the property names that
 * lead to JavaScript constructors. Without function definitions nothing can loop, so evaluation ends.
 */
export class JsonataConditionEvaluator implements ConditionEvaluator {
  problemWith(expression: string): string | null {
    if (expression.length > MAX_EXPRESSION) return `the expression must be at most ${MAX_EXPRESSION} characters`;
    let ast: unknown;
    try {
      ast = jsonata(expression).ast();
    } catch (error) {
      return `the expression is not valid JSONata: ${(error as { message?: string }).message ?? 'syntax error'}`;
    }
    return refusal(ast, { n: 0 });
  }

  async evaluate(expression: string, data: { input: unknown; steps: Record<string, { output: unknown }> }): Promise<unknown> {
    const problem = this.problemWith(expression);
    if (problem) throw new Error(problem);
    // A plain JSON copy: no functions, no shared objects, nothing but data.
    const copy = JSON.parse(JSON.stringify(data)) as unknown;
    const result = (await jsonata(expression).evaluate(copy)) as unknown;
    if (typeof result === 'function') throw new Error('the expression answered a function');
    return result === undefined ? null : JSON.parse(JSON.stringify(result)) as unknown;
  }
}
