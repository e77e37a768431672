import type { AreaNav } from '../../app/area';

/** Reached from an application (the Build tab), never from the sidebar. */
export const nav: AreaNav | null = null;
