import type { Redis } from 'ioredis';
import type { Container, Newable } from 'inversify';
import type Koa from 'koa';
import type { DataSource } from 'typeorm';
import type { Logger } from '../../adapters/logging/logger';
import type { ApplicationRepository } from '../../core/applications/ports/application-repository.port';
import type { Mailer } from '../../core/auth/ports/mailer.port';
import type { PasswordHasher } from '../../core/auth/ports/password-hasher.port';
import type { PasswordResetRepository } from '../../core/auth/ports/password-reset-repository.port';
import type { RefreshTokenRepository } from '../../core/auth/ports/refresh-token-repository.port';
import type { TokenService } from '../../core/auth/ports/token-service.port';
import type { SetupLink } from '../../core/auth/use-cases/platform-setup.use-cases';
import type { HealthCheck } from '../../core/health/ports/health-check.port';
import type { Cache } from '../../core/shared/cache.port';
import type { Clock } from '../../core/shared/clock.port';
import type { KeyHasher } from '../../core/shared/key-hasher.port';
import type { RateLimiter } from '../../core/shared/rate-limiter.port';
import type { SecretBox } from '../../core/shared/secret-box.port';
import type { UserRepository } from '../../core/users/ports/user-repository.port';
import type { AppConfig } from './config';

declare const boundType: unique symbol;

/**
 * A service identifier that carries the type bound to it, so the compiler checks the composition: binding
 * a value of the wrong type, or reading a token into the wrong type, is a type error instead of a failure
 * at run time. At run time it is the plain `Symbol.for(name)` Inversify keys its bindings by.
 */
export type Token<T> = symbol & { readonly [boundType]?: T };

/** A class used as its own identifier (use cases are bound by their class). */
export type Constructor<T> = Newable<T>;

/** What a binding is keyed by: a typed token or a class. */
export type Key<T> = Token<T> | Constructor<T>;

export function token<T>(name: string): Token<T> {
  return Symbol.for(name) as Token<T>;
}

/** Reads a binding with the type its key carries. */
export function resolve<T>(container: Container, key: Key<T>): T {
  return container.get<T>(key) as T;
}

/** Service identifiers shared by every app's container. Areas declare their own in `<area>.tokens.ts` beside their module. */
export const TOKENS = {
  Config: token<AppConfig>('Config'),
  Logger: token<Logger>('Logger'),
  DataSource: token<DataSource>('DataSource'),
  Clock: token<Clock>('Clock'),
  Cache: token<Cache>('Cache'),
  Redis: token<Redis>('Redis'),
  RateLimiter: token<RateLimiter>('RateLimiter'),
  HealthChecks: token<HealthCheck[]>('HealthChecks'),
  SecretBox: token<SecretBox>('SecretBox'),
  KeyHasher: token<KeyHasher>('KeyHasher'),
  PasswordHasher: token<PasswordHasher>('PasswordHasher'),
  TokenService: token<TokenService>('TokenService'),
  Mailer: token<Mailer>('Mailer'),
  UserRepository: token<UserRepository>('UserRepository'),
  RefreshTokenRepository: token<RefreshTokenRepository>('RefreshTokenRepository'),
  PasswordResetRepository: token<PasswordResetRepository>('PasswordResetRepository'),
  /** The setup link this start issued (null once the platform has an admin), for the start log (`announce`). */
  PendingSetupLink: token<{ link: SetupLink | null }>('PendingSetupLink'),
  ApplicationRepository: token<ApplicationRepository>('ApplicationRepository'),
  /** Koa middleware: bearer JWT required. */
  AuthMiddleware: token<Koa.Middleware>('AuthMiddleware'),
  /** Koa middleware: per-client-address limit for unauthenticated endpoints. */
  AddressLimitMiddleware: token<Koa.Middleware>('AddressLimitMiddleware'),
} as const;
