/** JSON Schema, through a kept validator (never hand-written): tool parameters are checked on save and every call. */
export interface JsonSchemaChecker {
  /** Why the schema may not be used (not a valid JSON Schema, unknown keywords), or null. */
  problemWithSchema(schema: unknown): string | null;
  /** The problems of `value` against `schema` (`/path must be …`), empty when it conforms. */
  check(schema: object, value: unknown): string[];
}
