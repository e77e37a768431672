/**
 * Not in the workspace navigation: every application's Publish & embed tab lists its domains; `/domains` (all of yours) stays reachable by links.
 */
export const nav = null;
