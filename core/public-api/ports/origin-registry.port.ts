/** Which browser origins applications allow (each application's `allowedOrigins`). */
export interface OriginRegistry {
  /** Whether at least one application lists this exact origin. */
  isListedByAnyApplication(origin: string): Promise<boolean>;
}
