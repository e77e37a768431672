/**
 * Not in the workspace navigation: every application's Analytics tab shows its figures; `/analytics` (all applications) is linked from the applications list.
 */
export const nav = null;
