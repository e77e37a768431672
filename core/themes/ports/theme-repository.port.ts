import type { Theme, ThemeDefinition, ThemeOverrides } from '../domain/theme';

export interface NewTheme {
  ownerId: string;
  name: string;
  description: string;
  extend: string | null;
  overrides: ThemeOverrides;
  definition: ThemeDefinition;
  published: boolean;
}

/** Stored (non-preset) themes. */
export interface ThemeRepository {
  create(theme: NewTheme): Promise<Theme>;
  findById(id: string): Promise<Theme | null>;
  /** The owner's themes and every published one, newest first. */
  listVisible(ownerId: string, offset: number, limit: number): Promise<{ items: Theme[]; total: number }>;
}
