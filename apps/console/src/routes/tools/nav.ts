/**
 * Not in the workspace navigation: this screen is a tab of each application's page (`/applications/:appId/...`, app/tabs.ts); its old address opens that tab.
 */
export const nav = null;
