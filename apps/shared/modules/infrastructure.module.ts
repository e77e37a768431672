import type { Container } from 'inversify';
import { Argon2PasswordHasher } from '../../../adapters/crypto/argon2.password-hasher';
import { AesGcmSecretBox } from '../../../adapters/crypto/aes-gcm.secret-box';
import { JwtTokenService } from '../../../adapters/crypto/jwt.token-service';
import { Sha256KeyHasher } from '../../../adapters/crypto/sha256.key-hasher';
import { FlexibleRateLimiter } from '../../../adapters/rate-limit/flexible.rate-limiter';
import type { HealthCheck } from '../../../core/health/ports/health-check.port';
import type { AppModule } from '../app-module';
import type { Infrastructure } from '../infrastructure';
import { TOKENS } from '../tokens';

export interface InfrastructureModuleOptions {
  /** Cheaper argon2 parameters for tests; production uses the OWASP defaults. */
  passwordHashing?: { memoryCost: number; timeCost: number; parallelism: number };
  /** A shorter access-token life for tests of expiry (the console's silent refresh); 15 minutes otherwise. */
  accessTokenTtlSeconds?: number;
}

/** Shared infrastructure: config, logger, database, Redis, crypto, rate limiter and the database health check. */
export function infrastructureModule(infra: Infrastructure, options: InfrastructureModuleOptions = {}): AppModule {
  return {
    name: 'infrastructure',
    bind(c: Container) {
      const { config } = infra;
      c.bind(TOKENS.Config).toConstantValue(config);
      c.bind(TOKENS.Logger).toConstantValue(infra.logger);
      c.bind(TOKENS.DataSource).toConstantValue(infra.dataSource);
      c.bind(TOKENS.Clock).toConstantValue(infra.clock);
      c.bind(TOKENS.Cache).toConstantValue(infra.cache);
      if (infra.redis) c.bind(TOKENS.Redis).toConstantValue(infra.redis);
      c.bind(TOKENS.RateLimiter).toConstantValue(new FlexibleRateLimiter({ redis: infra.redis, keyPrefix: 'rl' }));
      c.bind(TOKENS.SecretBox).toConstantValue(new AesGcmSecretBox({ key: config.encryptionKey, previousKeys: config.previousEncryptionKeys }));
      c.bind(TOKENS.KeyHasher).toConstantValue(new Sha256KeyHasher());
      c.bind(TOKENS.PasswordHasher).toConstantValue(new Argon2PasswordHasher(options.passwordHashing));
      c.bind(TOKENS.TokenService).toConstantValue(new JwtTokenService({ secret: config.jwtSecret, accessTtlSeconds: options.accessTokenTtlSeconds }));
      const checks: HealthCheck[] = [
        { name: 'database', critical: true, check: async () => void (await infra.dataSource.query('SELECT 1')) },
      ];
      if (infra.redis) {
        const redis = infra.redis;
        checks.push({ name: 'redis', critical: false, check: async () => void (await redis.ping()) });
      }
      c.bind(TOKENS.HealthChecks).toConstantValue(checks);
    },
  };
}
