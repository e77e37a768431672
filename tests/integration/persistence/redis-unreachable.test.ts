import { createLogger } from '../../../adapters/logging/logger';
import { createInfrastructure } from '../../../apps/shared/infrastructure';
import { RedisUnreachableError, redisFailureLine } from '../../../apps/shared/startup-failure';
import { freePort } from '../../support/spawn-service';
import { openTestDatabase } from '../../support/test-database';
import { testConfig } from '../../support/test-stack';

describe('start-up with a Redis that does not answer', () => {
  it('stops with one line naming REDIS_URL and where it tried, without the password, instead of hanging half-started', async () => {
    const port = await freePort(); // nothing listens there
    const database = await openTestDatabase();
    try {
      const config = testConfig({ REDIS_URL: `redis://:s3cret-pass@127.0.0.1:${port}` });
      const attempt = createInfrastructure(config, { database, logger: createLogger('silent'), redisReadyTimeoutMs: 1_500 });
      const error = await attempt.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RedisUnreachableError);
      const line = redisFailureLine(error)!;
      expect(line).toContain(`Cannot reach Redis of REDIS_URL (127.0.0.1:${port})`);
      expect(line).toMatch(/ECONNREFUSED/);
      expect(line).not.toContain('s3cret-pass');
    } finally {
      await database.close();
    }
  });

  it('leaves other errors to their own handling', () => {
    expect(redisFailureLine(new Error('boom'))).toBeUndefined();
  });
});
