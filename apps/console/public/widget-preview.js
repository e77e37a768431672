/*! The console's widget preview (components/WidgetPreview.tsx): loaded in a sandboxed frame before the real
 * /public/widget.js, it answers the widget's few requests from the draft in its data-preview attribute, so the
 * widget shows a theme and branding before they are saved. It answers a canned reply instead of chatting and
 * opens the panel once. Nothing leaves the frame. */
(() => {
  'use strict';
  const me = document.currentScript;
  let draft = {};
  try {
    draft = JSON.parse((me && me.dataset.preview) || '{}');
  } catch (_) {
    draft = {};
  }
  const json = (body) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  const reply = typeof draft.reply === 'string' ? draft.reply : 'This is how answers look.';
  window.fetch = (input) => {
    const url = new URL(typeof input === 'string' ? input : input.url, document.baseURI);
    if (url.pathname === '/api/v1/app') return Promise.resolve(json(draft.app || {}));
    if (url.pathname === '/public/widget-access') return Promise.resolve(json({ allowed: true }));
    if (url.pathname === '/api/v1/chat/stream') {
      const events = [{ type: 'chunk', content: reply }, { type: 'done', fullResponse: reply }];
      const body = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
      return Promise.resolve(new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }));
    }
    return Promise.resolve(new Response(null, { status: 204 }));
  };
  // Open the chat panel once the widget has mounted, so the preview shows it without a click. Looked for on a timer
  // for up to 30 s (the widget's script may load slowly on a busy machine; animation frames may not run in a frame).
  const started = Date.now();
  const openPanel = () => {
    const launcher = document.querySelector('ai-chat-widget')?.shadowRoot?.querySelector('button[aria-expanded="false"]');
    if (launcher) return launcher.click();
    if (Date.now() - started < 30000) setTimeout(openPanel, 50);
  };
  setTimeout(openPanel, 0);
})();
