/**
 * Not in the workspace navigation: the bell in the shell's header leads here.
 */
export const nav = null;
