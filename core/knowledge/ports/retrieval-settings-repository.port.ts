import type { RetrievalSettings } from '../domain/retrieval-settings';

/** Each application's retrieval settings; an application that never saved any has none (the defaults apply). */
export interface RetrievalSettingsRepository {
  find(applicationId: string): Promise<RetrievalSettings | null>;
  save(applicationId: string, settings: RetrievalSettings): Promise<void>;
}
