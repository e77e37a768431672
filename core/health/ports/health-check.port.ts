/** One dependency the service checks (database, Redis, the AI service). `critical` ones make the status `down`. */
export interface HealthCheck {
  readonly name: string;
  readonly critical: boolean;
  check(): Promise<void>;
}
