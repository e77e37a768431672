/**
 * Not in the workspace navigation: your uploaded files are shown in every application's Knowledge tab (and stay at `/uploads`).
 */
export const nav = null;
