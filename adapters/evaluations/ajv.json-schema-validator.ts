import type { JsonSchemaValidator } from '../../core/evaluations/ports/evaluation-engines.port';
import { AjvJsonSchemaChecker } from '../tools/ajv.json-schema-checker';

/** JSON Schema evaluators on Ajv, with the tools' rules (strict, no remote `$ref`, no `$id` registration). */
export class AjvJsonSchemaValidator implements JsonSchemaValidator {
  private readonly checker = new AjvJsonSchemaChecker();

  compile(schema: Record<string, unknown>): void {
    const problem = this.checker.problemWithSchema(schema);
    if (problem) throw new Error(problem);
  }

  errors(schema: Record<string, unknown>, value: unknown): string[] {
    return this.checker.check(schema, value);
  }
}
