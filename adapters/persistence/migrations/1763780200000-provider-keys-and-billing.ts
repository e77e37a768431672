import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Users' own provider keys (sealed, never in the clear), subscriptions and per-period usage counters.
 * All of it goes with the user.
 */
export class ProviderKeysAndBilling1763780200000 implements MigrationInterface {
  name = 'ProviderKeysAndBilling1763780200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE provider_keys (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        provider text NOT NULL CHECK (provider IN ('provider_a', 'provider_b', 'provider_c', 'provider_d')),
        sealed_key text NOT NULL,
        key_hint text NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        last_used_at timestamptz,
        last_validated_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, provider)
      )`);
    await q.query(`
      CREATE TABLE subscriptions (
        user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        plan text NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'starter', 'pro', 'enterprise')),
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'past_due', 'canceled', 'trialing', 'incomplete')),
        started_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // CHECKs on the counters: a bug that would drive one negative fails loudly instead of miscounting.
    await q.query(`
      CREATE TABLE usage_counters (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        period_start timestamptz NOT NULL,
        period_end timestamptz NOT NULL,
        tokens_used bigint NOT NULL DEFAULT 0 CHECK (tokens_used >= 0),
        tokens_reserved bigint NOT NULL DEFAULT 0 CHECK (tokens_reserved >= 0),
        overage_tokens bigint NOT NULL DEFAULT 0 CHECK (overage_tokens >= 0),
        own_key_tokens bigint NOT NULL DEFAULT 0 CHECK (own_key_tokens >= 0),
        messages_used integer NOT NULL DEFAULT 0 CHECK (messages_used >= 0),
        PRIMARY KEY (user_id, period_start)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE usage_counters`);
    await q.query(`DROP TABLE subscriptions`);
    await q.query(`DROP TABLE provider_keys`);
  }
}
