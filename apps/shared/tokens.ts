/** Service identifiers shared by every app's container. Areas declare their own beside their module. */
export const TOKENS = {
  Config: Symbol.for('Config'),
  Logger: Symbol.for('Logger'),
  DataSource: Symbol.for('DataSource'),
  Clock: Symbol.for('Clock'),
  Cache: Symbol.for('Cache'),
  Redis: Symbol.for('Redis'),
  RateLimiter: Symbol.for('RateLimiter'),
  HealthChecks: Symbol.for('HealthChecks'),
  SecretBox: Symbol.for('SecretBox'),
  KeyHasher: Symbol.for('KeyHasher'),
  PasswordHasher: Symbol.for('PasswordHasher'),
  TokenService: Symbol.for('TokenService'),
  Mailer: Symbol.for('Mailer'),
  UserRepository: Symbol.for('UserRepository'),
  RefreshTokenRepository: Symbol.for('RefreshTokenRepository'),
  PasswordResetRepository: Symbol.for('PasswordResetRepository'),
  ApplicationRepository: Symbol.for('ApplicationRepository'),
  /** Koa middleware: bearer JWT required. */
  AuthMiddleware: Symbol.for('AuthMiddleware'),
  /** Koa middleware: per-client-address limit for unauthenticated endpoints. */
  AddressLimitMiddleware: Symbol.for('AddressLimitMiddleware'),
} as const;
