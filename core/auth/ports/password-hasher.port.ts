/** Slow, salted password hashing; the hash string carries its own parameters. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** True when `password` matches `hash`; false for a wrong password and for a malformed hash, never a throw. */
  verify(hash: string, password: string): Promise<boolean>;
}
