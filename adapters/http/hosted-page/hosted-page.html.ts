import type { PublicApplicationView } from '../../../core/public-api/domain/public-views';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * The policy of the hosted page: scripts and styles from this origin only (plus the one inline style,
 * by nonce), requests back to this origin only, images and fonts also from https (custom CSS may use
 * them), no framing, no plugins, no base or form targets.
 */
export function hostedPageCsp(nonce?: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self'${nonce ? ` 'nonce-${nonce}'` : ''}`,
    "connect-src 'self'",
    "img-src 'self' https: data:",
    "font-src 'self' https: data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The full-page chat: the theme's stylesheet, and the widget script in page mode. */
export function hostedPageHtml(app: PublicApplicationView, nonce: string): string {
  const name = escapeHtml(app.name);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name}</title>
<meta name="description" content="${escapeHtml(app.description || `Chat with ${app.name}`)}">
<link rel="stylesheet" href="/api/applications/${encodeURIComponent(app.id)}/theme.css">
<style nonce="${nonce}">html,body{margin:0;height:100%;background:var(--ap-color-background);color:var(--ap-color-text);font-family:var(--ap-font-family)}</style>
</head>
<body>
<noscript><p>${name}: this chat needs JavaScript.</p></noscript>
<script src="/public/widget.js" data-mode="page" data-slug="${escapeHtml(app.slug)}" data-app-id="${escapeHtml(app.id)}" async></script>
</body>
</html>
`;
}

export function notFoundHtml(nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Chat not found</title>
<style nonce="${nonce}">body{margin:0;min-height:100vh;display:grid;place-items:center;font:16px/1.5 system-ui,sans-serif;color:#1f2937;background:#f9fafb}main{text-align:center;padding:24px}</style>
</head>
<body><main><h1>Chat not found</h1><p>There is no chat at this address, or its owner has turned it off.</p></main></body>
</html>
`;
}
