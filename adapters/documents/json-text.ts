import { ValidationError } from '../../core/shared/errors';
import { TextBuilder } from '../../core/knowledge/domain/parsed-text';

/** Deeper documents are refused: their paths would repeat the nesting on every line. */
export const MAX_JSON_DEPTH = 64;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A JSON document as readable `path: value` lines (`user.name: Ada`, `items[0].price: 3`).
 * Arrays of plain values read as one list (`tags: red, green`). Walks with an explicit stack, so
 * nesting never touches the call stack.
 */
export function jsonToText(source: string): string {
  let value: Json;
  try {
    value = JSON.parse(source) as Json;
  } catch {
    throw new ValidationError('The document is not valid JSON');
  }
  const out = new TextBuilder();
  const stack: { path: string; value: Json; depth: number }[] = [{ path: '', value, depth: 0 }];
  while (stack.length > 0) {
    const { path, value: node, depth } = stack.pop()!;
    if (depth > MAX_JSON_DEPTH) throw new ValidationError(`The JSON document is nested more than ${MAX_JSON_DEPTH} levels deep`);
    if (Array.isArray(node)) {
      if (node.length > 0 && node.every(isScalar)) {
        line(out, path, node.map(scalarText).join(', '));
      } else {
        // Pushed in reverse so lines come out in document order.
        for (let i = node.length - 1; i >= 0; i--) stack.push({ path: `${path}[${i}]`, value: node[i]!, depth: depth + 1 });
      }
    } else if (node !== null && typeof node === 'object') {
      const keys = Object.keys(node);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push({ path: join(path, key), value: node[key]!, depth: depth + 1 });
      }
    } else {
      line(out, path, scalarText(node));
    }
  }
  return out.toString();
}

function isScalar(value: Json): boolean {
  return value === null || typeof value !== 'object';
}

function scalarText(value: Json): string {
  return typeof value === 'string' ? value.trim() : String(value);
}

function line(out: TextBuilder, path: string, text: string): void {
  if (text === '') return;
  out.push(path === '' ? text : `${path}: ${text}`);
}

/** `a.b` for plain keys, `a["odd key"]` for the rest, so a path is never ambiguous. */
function join(path: string, key: string): string {
  if (/^[\p{L}_$][\p{L}\p{N}_$-]*$/u.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}
