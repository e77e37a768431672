import Ajv, { type ValidateFunction } from 'ajv';
import type { JsonSchemaChecker } from '../../core/tools/ports/json-schema.port';

const MAX_CACHED = 500;

/**
 * Tool parameter schemas through Ajv (draft-07) in strict mode: unknown keywords and malformed schemas
 * are refused on save, not discovered at call time. Schemas are never registered by `$id` (one owner's
 * `$id` must not shadow another's), remote `$ref`s are never fetched, formats are not enforced (models
 * send what the description asks; a format Ajv does not know would otherwise refuse the schema).
 * Compiled validators are kept per schema text, least recently used out.
 */
export class AjvJsonSchemaChecker implements JsonSchemaChecker {
  private readonly ajv = new Ajv({ strict: true, strictTypes: false, strictTuples: false, allErrors: true, addUsedSchema: false, validateFormats: false, logger: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  problemWithSchema(schema: unknown): string | null {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'a schema must be an object';
    try {
      // An async schema validates through a promise, which a synchronous check would read as "valid".
      if ((this.validator(schema) as { $async?: boolean }).$async) return '"$async" schemas are not supported';
      return null;
    } catch (error) {
      return error instanceof Error ? error.message.slice(0, 300) : 'the schema could not be compiled';
    }
  }

  check(schema: object, value: unknown): string[] {
    const validate = this.validator(schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, 10).map((e) => `${e.instancePath || '(arguments)'} ${e.message ?? 'is not valid'}`.trim());
  }

  private validator(schema: object): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (validate) {
      this.compiled.delete(key);
    } else {
      validate = this.ajv.compile(schema);
      if (this.compiled.size >= MAX_CACHED) this.compiled.delete(this.compiled.keys().next().value!);
    }
    this.compiled.set(key, validate);
    return validate;
  }
}
