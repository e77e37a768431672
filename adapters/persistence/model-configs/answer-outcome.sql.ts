import type { AnswerOutcome } from '../../../core/model-configs/domain/config-version';

/**
 * Folds one answer into an arm's running metrics (a version's columns, or the config's `control_` ones) in
 * one statement, so concurrent answers queue on the row and none is lost. Every right-hand side reads the
 * row as it was before the update; successes so far = requests - errors.
 */
export function recordOutcomeStatement(table: 'model_configs' | 'model_config_versions', prefix: '' | 'control_'): string {
  const c = (name: string) => `${prefix}${name}`;
  const successes = `(${c('request_count')} - ${c('error_count')} + 1)`;
  return `UPDATE ${table} SET
       ${c('request_count')} = ${c('request_count')} + 1,
       ${c('error_count')} = ${c('error_count')} + CASE WHEN $2::boolean THEN 0 ELSE 1 END,
       ${c('avg_latency_ms')} = CASE WHEN $2::boolean
         THEN ${c('avg_latency_ms')} + ($3::double precision - ${c('avg_latency_ms')}) / ${successes}
         ELSE ${c('avg_latency_ms')} END,
       ${c('avg_tokens_used')} = CASE WHEN $2::boolean
         THEN ${c('avg_tokens_used')} + ($4::double precision - ${c('avg_tokens_used')}) / ${successes}
         ELSE ${c('avg_tokens_used')} END
     WHERE id = $1`;
}

/** The parameters of `recordOutcomeStatement` for one answer. */
export function recordOutcomeParams(id: string, outcome: AnswerOutcome): unknown[] {
  return [id, outcome.ok, outcome.ok ? outcome.latencyMs : 0, outcome.ok ? outcome.totalTokens : 0];
}
