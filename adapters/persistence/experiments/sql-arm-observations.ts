import type { DataSource } from 'typeorm';
import type { PriceTable } from '../../../core/ai/domain/model-catalog';
import type { GuardrailSample } from '../../../core/experiments/domain/decide';
import { CONTROL_ARM } from '../../../core/experiments/domain/experiment';
import type { Moments } from '../../../core/experiments/domain/sequential-test';
import type { ArmObservations, ObservationScope } from '../../../core/experiments/ports/arm-observations.port';
import { rows } from '../sql';

/**
 * The answers of a test's arms, read from `messages` since the test started: a version's by its id, the
 * control's as its application's answers without a version from the config's provider and model (a
 * request that chose its own model is no observation of either). Each read is one aggregate statement.
 */
const ARM_ANSWERS = `
  FROM messages m JOIN conversations c ON c.id = m.conversation_id
  WHERE c.application_id = $1 AND m.role = 'assistant' AND m.created_at >= $2
    AND ((m.config_version_id IS NULL AND m.provider = $3 AND m.model = $4)
         OR m.config_version_id IN (SELECT jsonb_array_elements_text($5::jsonb)::uuid))`;

const ARM = `COALESCE(m.config_version_id::text, '${CONTROL_ARM}')`;

/** Prices of the models a table holds, as rows a statement can join (US dollars per token). */
const PRICES = `(SELECT p.provider, p.model, p.input_per_token, p.output_per_token
  FROM jsonb_to_recordset($6::jsonb) AS p(provider text, model text, input_per_token double precision, output_per_token double precision))`;

interface MomentRow {
  arm: string;
  n: number;
  s: number | null;
  ss: number | null;
}

const toMoments = (found: MomentRow[]): Map<string, Moments> =>
  new Map(found.map((r) => [r.arm, { n: Number(r.n), sum: Number(r.s ?? 0), sumSquares: Number(r.ss ?? 0) }]));

export class SqlArmObservations implements ArmObservations {
  constructor(private readonly db: DataSource, private readonly prices: PriceTable) {}

  private params(scope: ObservationScope): unknown[] {
    return [scope.applicationId, scope.since, scope.control.provider, scope.control.modelId, JSON.stringify(scope.versionIds)];
  }

  private priceRows(): string {
    const list: Array<{ provider: string; model: string; input_per_token: number; output_per_token: number }> = [];
    for (const [provider, models] of Object.entries(this.prices)) {
      for (const [model, price] of Object.entries(models)) list.push({ provider, model, input_per_token: price.inputPerMillion / 1e6, output_per_token: price.outputPerMillion / 1e6 });
    }
    return JSON.stringify(list);
  }

  async ratings(scope: ObservationScope, thumbsUp: boolean): Promise<Map<string, Moments>> {
    const value = thumbsUp ? `CASE WHEN m.rating >= 4 THEN 1.0 ELSE 0.0 END` : `m.rating::double precision`;
    return toMoments(
      await rows<MomentRow>(
        this.db,
        `SELECT ${ARM} AS arm, count(*)::int AS n, sum(${value}) AS s, sum((${value}) * (${value})) AS ss
         ${ARM_ANSWERS} AND m.rating IS NOT NULL GROUP BY 1`,
        this.params(scope),
      ),
    );
  }

  async costPerConversation(scope: ObservationScope): Promise<Map<string, Moments>> {
    // A conversation counts once it has an answer, and only when every answer of it is priced.
    return toMoments(
      await rows<MomentRow>(
        this.db,
        `SELECT arm, count(*)::int AS n, sum(cost) AS s, sum(cost * cost) AS ss FROM (
           SELECT ${ARM} AS arm, m.conversation_id,
                  sum(coalesce(m.prompt_tokens, 0) * p.input_per_token + coalesce(m.completion_tokens, 0) * p.output_per_token) AS cost,
                  bool_and(p.provider IS NOT NULL) AS priced
           ${ARM_ANSWERS.replace('WHERE', `LEFT JOIN ${PRICES} p ON p.provider = m.provider AND p.model = m.model WHERE`)}
             AND c.created_at >= $2
           GROUP BY 1, 2) per_conversation
         WHERE priced GROUP BY arm`,
        [...this.params(scope), this.priceRows()],
      ),
    );
  }

  async guardrails(scope: ObservationScope): Promise<Map<string, GuardrailSample>> {
    const found = await rows<{ arm: string; n: number; failed: number; priced: number; cost: number | null; cost2: number | null }>(
      this.db,
      `SELECT arm, count(*)::int AS n, count(*) FILTER (WHERE failed)::int AS failed,
              count(cost)::int AS priced, sum(cost) AS cost, sum(cost * cost) AS cost2 FROM (
         SELECT ${ARM} AS arm, m.status = 'failed' AS failed,
                CASE WHEN m.status = 'failed' OR p.provider IS NULL THEN NULL
                     ELSE coalesce(m.prompt_tokens, 0) * p.input_per_token + coalesce(m.completion_tokens, 0) * p.output_per_token END AS cost
         ${ARM_ANSWERS.replace('WHERE', `LEFT JOIN ${PRICES} p ON p.provider = m.provider AND p.model = m.model WHERE`)}) answers
       GROUP BY arm`,
      [...this.params(scope), this.priceRows()],
    );
    return new Map(
      found.map((r) => [
        r.arm,
        {
          errors: { n: Number(r.n), sum: Number(r.failed), sumSquares: Number(r.failed) },
          cost: { n: Number(r.priced), sum: Number(r.cost ?? 0), sumSquares: Number(r.cost2 ?? 0) },
        },
      ]),
    );
  }
}
