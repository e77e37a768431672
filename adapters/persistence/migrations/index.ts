import type { MigrationInterface } from 'typeorm';
import { Foundation1763780000000 } from './1763780000000-foundation';

/** Every migration, oldest first. A new one is one file and one line here. */
export const MIGRATIONS: Array<new () => MigrationInterface> = [Foundation1763780000000];
