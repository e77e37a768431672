/*! Embeddable chat widget. Paste on any page:
 * <script src="https://HOST/public/widget.js" data-app-id="APP_UUID" data-api-key="KEY" async></script>
 * Optional: data-theme (light|dark|auto), data-position (bottom-right|bottom-left|top-right|top-left),
 * data-title, data-greeting, data-placeholder. The application's theme and branding (colours, fonts, radius,
 * corner, welcome message, placeholder, custom CSS, attribution) apply unless an attribute says otherwise.
 * Page mode (the hosted chat page): data-mode="page" data-slug="SLUG", no key; the chat fills the page.
 * Everything lives in a Shadow DOM; model and server text only ever reaches the page through textContent. */
(() => {
  'use strict';

  const SCRIPT_PATH = '/public/widget.js';
  const MOUNTED = '__aiChatWidgetMounted'; // expando on the script tag, so several widgets never claim the same tag
  const POSITIONS = ['bottom-right', 'bottom-left', 'top-right', 'top-left'];
  const THEMES = ['light', 'dark', 'auto'];
  const MAX_STORED = 100;
  const TOOL_STATES = ['running', 'done', 'failed'];
  const LIGHT = { pr: '#2563eb', on: '#fff', bg: '#fff', fg: '#1f2937', mu: '#6b7280', bd: '#e5e7eb', bb: '#f3f4f6', bf: '#1f2937', cb: 'rgba(127,127,127,.16)', ac: '#2563eb', eb: '#fef2f2', ef: '#991b1b' };
  const DARK = { pr: '#2563eb', on: '#fff', bg: '#111827', fg: '#f3f4f6', mu: '#9ca3af', bd: '#374151', bb: '#1f2937', bf: '#f3f4f6', cb: 'rgba(255,255,255,.1)', ac: '#93c5fd', eb: '#450a0a', ef: '#fecaca' };
  const ICON_CHAT = 'M5 4h14a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H10l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z';
  const ICON_CLOSE = 'M6 6l12 12M18 6L6 18';

  const script = findScript();
  if (!script) return;
  script[MOUNTED] = true;
  const data = script.dataset;
  const config = {
    base: new URL(script.src, document.baseURI).origin,
    appId: (data.appId || '').trim(),
    apiKey: (data.apiKey || '').trim(),
    page: data.mode === 'page',
    slug: (data.slug || '').trim(),
    theme: THEMES.includes(data.theme) ? data.theme : 'auto',
    position: POSITIONS.includes(data.position) ? data.position : '',
    title: (data.title || '').trim(),
    greeting: (data.greeting || '').trim(),
    placeholder: (data.placeholder || '').trim(),
  };
  if (config.page ? !config.slug : !config.appId || !config.apiKey) {
    console.warn('[chat widget] data-app-id and data-api-key are required; the widget was not shown.');
    return;
  }

  function findScript() {
    const current = document.currentScript;
    if (current && current.src && !current[MOUNTED]) return current;
    // currentScript is null when the tag was run by some loaders: take the first widget tag nobody claimed yet.
    for (const candidate of document.querySelectorAll('script[src]')) {
      if (candidate[MOUNTED]) continue;
      try {
        if (new URL(candidate.src, document.baseURI).pathname.endsWith(SCRIPT_PATH)) return candidate;
      } catch (_) { /* not a URL: not ours */ }
    }
    return null;
  }

  /** Builds an element; children are nodes or strings (strings become text nodes, never markup). */
  function h(tag, attrs, children) {
    const el = document.createElement(tag);
    for (const name in attrs || {}) el.setAttribute(name, attrs[name]);
    if (children) el.append(...children);
    return el;
  }

  function icon(d) {
    const ns = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(ns, 'svg');
    const path = document.createElementNS(ns, 'path');
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('focusable', 'false');
    path.setAttribute('d', d);
    svg.append(path);
    return svg;
  }

  function styles(position, page) {
    const [vertical, horizontal] = position.split('-');
    const vars = (theme) => Object.keys(theme).map((k) => `--${k}:${theme[k]}`).join(';');
    return `
:host{all:initial!important;display:block!important;position:fixed!important;z-index:2147483000!important;${page ? 'inset:0!important' : `${vertical}:20px!important;${horizontal}:20px!important`}}
@media print{:host{display:none!important}}
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
.t-light,.t-auto{${vars(LIGHT)};color-scheme:light}
.t-dark{${vars(DARK)};color-scheme:dark}
@media (prefers-color-scheme:dark){.t-auto{${vars(DARK)};color-scheme:dark}}
.w{display:flex;flex-direction:${vertical === 'bottom' ? 'column-reverse' : 'column'};align-items:${horizontal === 'right' ? 'flex-end' : 'flex-start'};gap:12px;font:var(--fs,14px)/var(--lh,1.45) var(--ff,system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif);color:var(--fg);text-align:left;-webkit-font-smoothing:antialiased}
button,textarea{font:inherit;color:inherit;margin:0}
button{cursor:pointer}
:focus{outline:none}
:focus-visible{outline:3px solid var(--ac);outline-offset:2px}
svg{width:24px;height:24px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.lb{display:grid;place-items:center;width:56px;height:56px;padding:0;border:0;border-radius:50%;background:var(--pr);color:var(--on);box-shadow:0 6px 20px rgba(0,0,0,.25)}
.lb svg{width:26px;height:26px}
.p{display:flex;flex-direction:column;width:min(380px,calc(100vw - 40px));height:min(560px,calc(100vh - 108px));background:var(--bg);color:var(--fg);border:1px solid var(--bd);border-radius:var(--r,14px);box-shadow:0 12px 40px rgba(0,0,0,.25);overflow:hidden}
.hd{display:flex;align-items:center;gap:8px;padding:12px 10px 12px 16px;background:var(--pr);color:var(--on)}
.tt{flex:1;margin:0;font-family:var(--hf,inherit);font-size:16px;font-weight:600;line-height:1.3;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.x{display:grid;place-items:center;width:32px;height:32px;padding:0;border:0;border-radius:8px;background:transparent;color:inherit}
.x svg{width:20px;height:20px}
.x:focus-visible{outline-color:var(--on);outline-offset:-2px}
.l{flex:1;display:flex;flex-direction:column;gap:10px;padding:14px;overflow-y:auto;overscroll-behavior:contain}
.m{max-width:85%;padding:8px 12px;border-radius:14px;overflow-wrap:anywhere}
.u{align-self:flex-end;background:var(--ub,var(--pr));color:var(--uo,var(--on));white-space:pre-wrap;border-bottom-right-radius:4px}
.a{align-self:flex-start;background:var(--bb);color:var(--bf);border-bottom-left-radius:4px}
.e{align-self:stretch;max-width:none;background:var(--eb);color:var(--ef);border-radius:8px}
.a p,.a ul,.a ol,.a pre{margin:0 0 8px}
.a>:last-child{margin-bottom:0}
.a ul,.a ol{padding-left:20px}
.a a{color:var(--ac);text-decoration:underline}
.a code{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--cb);padding:1px 4px;border-radius:4px}
.a pre{padding:8px 10px;background:var(--cb);border-radius:8px;overflow-x:auto;white-space:pre}
.a pre code{padding:0;background:none}
.dots{display:inline-flex;gap:4px;padding:4px 0}
.dots i{width:6px;height:6px;border-radius:50%;background:var(--mu);animation:b 1s infinite alternate}
.dots i:nth-child(2){animation-delay:.2s}.dots i:nth-child(3){animation-delay:.4s}
@keyframes b{to{opacity:.25}}
@media (prefers-reduced-motion:reduce){.dots i{animation:none}}
.f{display:flex;align-items:flex-end;gap:8px;padding:10px;border-top:1px solid var(--bd)}
.f textarea{flex:1;min-height:40px;max-height:120px;padding:9px 12px;border:1px solid var(--bd);border-radius:10px;background:var(--bg);resize:none;line-height:1.4}
.f textarea::placeholder{color:var(--mu);opacity:1}
.s{height:40px;padding:0 14px;border:0;border-radius:10px;background:var(--pr);color:var(--on);font-weight:600}
.s:disabled{opacity:.5;cursor:default}
.a .tl{margin:0 0 6px;padding:0;list-style:none;font-size:12.5px;line-height:1.4;color:var(--mu);overflow-wrap:anywhere}
.tl b{font-weight:600}
.tl .failed{color:var(--ef)}
.cs{margin-top:8px;padding-top:6px;border-top:1px solid var(--bd);font-size:12.5px;line-height:1.4}
.cs p{margin:0 0 4px;font-weight:600;color:var(--mu)}
.a .cs ol{margin:0;padding-left:18px}
.cs li+li{margin-top:4px}
.cs b{display:block;font-weight:600;overflow-wrap:anywhere}
.cs q{display:block;color:var(--mu);quotes:none}
.sr{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
@media (max-width:480px){.p{width:calc(100vw - 24px);height:calc(100vh - 100px)}}
.at{padding:0 10px 8px;font-size:11px;text-align:center;color:var(--mu)}
.at a{color:inherit}
${page ? '.w{height:100%;align-items:center;background:var(--bg)}.lb,.x{display:none}.p{width:100%;max-width:var(--mw,960px);height:100%;border-width:0 1px;border-radius:0;box-shadow:none}' : ''}`;
  }

  /** The widget's own styles, then the owner's custom CSS: both inside the shadow root, never on the page. */
  function adoptStyles(root, css, custom) {
    // A constructed sheet is not blocked by a host page CSP without 'unsafe-inline'; <style> is the fallback.
    try {
      root.adoptedStyleSheets = [css, custom || ''].map((text) => {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(text);
        return sheet;
      });
    } catch (_) {
      for (const el of root.querySelectorAll('style')) el.remove();
      root.prepend(h('style', {}, [css + '\n' + (custom || '')]));
    }
  }

  // ---- Safe Markdown: DOM nodes only, links limited to http(s). ----
  const FENCE = /^\s*(```|~~~)\s*([\w+#.-]*)/;
  const ITEM = /^\s*([-*+]|\d{1,9}[.)])\s+(.*)$/;
  const HEADING = /^\s{0,3}#{1,6}\s+(.*)$/;
  const INLINE = /`([^`\n]+)`|\*\*(\S(?:[^\n]*?\S)?)\*\*|\*(\S(?:[^*\n]*?\S)?)\*|\[([^\]\n]+)\]\(\s*([^)\s]+)\s*\)|(https?:\/\/[^\s<>()[\]]*[^\s<>()[\].,;:!?'"])/;

  function markdown(source) {
    const out = document.createDocumentFragment();
    const lines = source.replace(/\r\n?/g, '\n').split('\n');
    let i = 0;
    while (i < lines.length) {
      const line = lines[i];
      const fence = FENCE.exec(line);
      let match;
      if (fence) {
        const body = [];
        for (i++; i < lines.length && !lines[i].trim().startsWith(fence[1]); i++) body.push(lines[i]);
        i++; // the closing fence (still missing while an answer streams)
        const code = h('code', fence[2] ? { class: `language-${fence[2]}` } : {}, [body.join('\n')]);
        out.append(h('pre', {}, [code]));
      } else if (!line.trim()) {
        i++;
      } else if ((match = HEADING.exec(line))) {
        out.append(h('p', {}, [h('strong', {}, inline(match[1]))]));
        i++;
      } else if ((match = ITEM.exec(line))) {
        const ordered = /\d/.test(match[1]);
        const list = h(ordered ? 'ol' : 'ul');
        if (ordered && parseInt(match[1], 10) !== 1) list.setAttribute('start', String(parseInt(match[1], 10)));
        while (i < lines.length && (match = ITEM.exec(lines[i])) && /\d/.test(match[1]) === ordered) {
          const item = h('li', {}, inline(match[2]));
          // Indented lines under an item continue it.
          for (i++; i < lines.length && /^\s{2,}\S/.test(lines[i]) && !ITEM.test(lines[i]); i++) item.append(h('br'), ...inline(lines[i].trim()));
          list.append(item);
        }
        out.append(list);
      } else {
        const p = h('p');
        for (let first = true; i < lines.length && lines[i].trim() && !FENCE.test(lines[i]) && !ITEM.test(lines[i]) && !HEADING.test(lines[i]); i++, first = false) {
          if (!first) p.append(h('br'));
          p.append(...inline(lines[i]));
        }
        out.append(p);
      }
    }
    return out;
  }

  function inline(text) {
    const nodes = [];
    let match;
    while ((match = INLINE.exec(text))) {
      if (match.index) nodes.push(text.slice(0, match.index));
      if (match[1] !== undefined) nodes.push(h('code', {}, [match[1]]));
      else if (match[2] !== undefined) nodes.push(h('strong', {}, inline(match[2])));
      else if (match[3] !== undefined) nodes.push(h('em', {}, inline(match[3])));
      else if (match[4] !== undefined) nodes.push(link(match[4], match[5]));
      else nodes.push(link(match[6], match[6]));
      text = text.slice(match.index + match[0].length);
    }
    if (text) nodes.push(text);
    return nodes;
  }

  function link(label, href) {
    let url = null;
    try {
      url = new URL(href);
    } catch (_) { /* relative or malformed: shown as its label only */ }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return label;
    return h('a', { href: url.href, target: '_blank', rel: 'noopener noreferrer' }, [label]);
  }

  // ---- HTTP ----
  const HOSTED = `/api/hosted/${encodeURIComponent(config.slug)}`;
  const paths = config.page
    ? { app: `${HOSTED}/app`, stream: `${HOSTED}/chat/stream`, conversation: `${HOSTED}/conversations/` }
    : { app: '/api/v1/app?applicationId=' + encodeURIComponent(config.appId), stream: '/api/v1/chat/stream', conversation: '/api/v1/conversations/' };
  let conversationToken = '';

  function api(path, init) {
    // X-Client lets the platform record these conversations as coming from the widget.
    const headers = config.page ? { 'X-Client': 'widget' } : { 'X-API-Key': config.apiKey, 'X-Client': 'widget' };
    if (config.page && conversationToken) headers['X-Conversation-Token'] = conversationToken;
    if (init && init.body) headers['Content-Type'] = 'application/json';
    return fetch(config.base + path, Object.assign({ credentials: 'omit', cache: 'no-store' }, init, { headers }));
  }

  /** A server text we may show: a short single line, never a stack trace or a page of HTML. */
  function readable(message) {
    if (Array.isArray(message)) message = message.filter((m) => typeof m === 'string').join('; ');
    if (typeof message !== 'string') return '';
    message = message.trim();
    return message && message.length <= 200 && !/[\n<>]/.test(message) ? message : '';
  }

  function retrySeconds(header) {
    if (!header) return 0;
    const seconds = /^\s*\d+(\.\d+)?\s*$/.test(header) ? Number(header) : (Date.parse(header) - Date.now()) / 1000;
    return Number.isFinite(seconds) ? Math.max(1, Math.ceil(seconds)) : 0;
  }

  async function failureMessage(res) {
    let message = '';
    try {
      message = readable(JSON.parse(await res.text()).message);
    } catch (_) { /* not JSON: never shown */ }
    if (res.status === 429) {
      const seconds = retrySeconds(res.headers.get('Retry-After'));
      return seconds ? `Too many messages, try again in ${seconds} s.` : 'Too many messages, please try again in a moment.';
    }
    if (res.status === 401 || res.status === 403) return 'This chat is not set up correctly (its API key was refused). Please let the site owner know.';
    if (res.status === 424) return PROVIDER_KEY_REFUSED;
    if (res.status >= 500) return 'The chat service is having trouble right now. Please try again later.';
    return message || `Something went wrong (error ${res.status}). Please try again.`;
  }

  const PROVIDER_KEY_REFUSED = 'This chat cannot answer right now: its AI provider refused the key it was set up with. Please let the site owner know.';

  /**
   * Why the browser refuses this page the chat service, if that is the reason: the public API only
   * answers CORS to origins the application lists, and a refused request looks like a network failure.
   * `/public/widget-access` is readable from any origin and says whether this one is allowed.
   */
  let accessCheck = null;
  function accessProblem() {
    if (!accessCheck) {
      accessCheck = fetch(`${config.base}/public/widget-access?applicationId=${encodeURIComponent(config.appId)}`, { credentials: 'omit', cache: 'no-store' })
        .then((res) => (res.ok ? res.json() : null))
        .then((answer) => {
          if (!answer || answer.allowed !== false) return '';
          return readable(answer.message) || `This chat is not enabled on ${location.origin}. The site owner can enable it by adding ${location.origin} to the application's allowed origins (allowedOrigins).`;
        })
        .catch(() => {
          accessCheck = null; // really offline: ask again next time
          return '';
        });
    }
    return accessCheck;
  }

  /** Citations: the knowledge-base passages an answer drew on, by document name and excerpt (text only). */
  function citableSources(sources) {
    if (!Array.isArray(sources)) return [];
    const seen = new Set();
    const out = [];
    for (const s of sources) {
      if (!s || typeof s.fileName !== 'string' || !s.fileName.trim()) continue;
      const excerpt = typeof s.excerpt === 'string' ? s.excerpt.trim().slice(0, 300) : '';
      const key = `${s.fileName}\n${s.page}\n${s.section}\n${excerpt}`;
      if (seen.has(key)) continue;
      seen.add(key);
      // "handbook.pdf, p. 12, Leave > Sick leave": the place, when the source records it.
      const page = Number.isInteger(s.page) && s.page > 0 ? `, p. ${s.page}` : '';
      const section = typeof s.section === 'string' && s.section.trim() ? `, ${s.section.trim().slice(0, 200)}` : '';
      out.push({ fileName: `${s.fileName.trim().slice(0, 200)}${page}${section}`, excerpt });
      if (out.length === 5) break;
    }
    return out;
  }

  /** Reads `data: <json>` server-sent events from a fetch body; events may be split across network chunks. */
  async function readEvents(body, onEvent) {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const boundary = /\r?\n\r?\n/;
    let buffer = '';
    const dispatch = (raw) => {
      const payload = raw.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(l[5] === ' ' ? 6 : 5)).join('\n');
      if (!payload) return false;
      let event;
      try {
        event = JSON.parse(payload);
      } catch (_) {
        return false;
      }
      return event && typeof event === 'object' ? onEvent(event) === true : false;
    };
    for (;;) {
      const { value, done } = await reader.read();
      buffer += decoder.decode(value || new Uint8Array(0), { stream: !done });
      let match;
      while ((match = boundary.exec(buffer))) {
        const raw = buffer.slice(0, match.index);
        buffer = buffer.slice(match.index + match[0].length);
        if (dispatch(raw)) {
          reader.cancel().catch(() => {});
          return;
        }
      }
      if (done) {
        if (buffer.trim()) dispatch(buffer);
        return;
      }
    }
  }

  // ---- The widget ----
  function mount() {
    const storeKey = `ai-chat-widget:${config.page ? 'page:' + config.slug : config.appId}`;
    const settings = { position: config.position || 'bottom-right', greeting: config.greeting, placeholder: config.placeholder || 'Type your message…', css: '' };
    const state = { conversationId: null, messages: [], streaming: false, version: 0, title: config.title || 'Chat' };

    const host = h('ai-chat-widget', { 'data-app-id': config.appId });
    const root = host.attachShadow({ mode: 'open' });
    adoptStyles(root, styles(settings.position, config.page));

    const launcherIcon = icon(ICON_CHAT);
    const launcher = h('button', { type: 'button', class: 'lb', 'aria-expanded': 'false', 'aria-controls': 'panel', 'aria-haspopup': 'dialog' }, [launcherIcon]);
    const title = h('h2', { class: 'tt' });
    const close = h('button', { type: 'button', class: 'x', 'aria-label': 'Close chat' }, [icon(ICON_CLOSE)]);
    const log = h('div', { class: 'l', role: 'log', 'aria-live': 'polite', 'aria-label': 'Messages', tabindex: '0' });
    const input = h('textarea', { id: 'input', rows: '1', placeholder: settings.placeholder, maxlength: '4000', enterkeyhint: 'send' });
    const send = h('button', { type: 'submit', class: 's' }, ['Send']);
    const form = h('form', { class: 'f' }, [h('label', { for: 'input', class: 'sr' }, ['Your message']), input, send]);
    const attribution = h('div', { class: 'at' }, [h('a', { href: config.base, target: '_blank', rel: 'noopener noreferrer' }, ['Powered by AI Platform'])]);
    const panel = h('div', { class: 'p', id: 'panel', role: config.page ? 'main' : 'dialog', hidden: '' }, [h('div', { class: 'hd' }, [title, close]), log, form, attribution]);
    const wrap = h('div', { class: `w t-${config.theme}` }, [launcher, panel]);
    root.append(wrap);

    setTitle(state.title);
    restore();
    renderAll();

    launcher.addEventListener('click', () => (panel.hidden ? open() : hide()));
    close.addEventListener('click', hide);
    wrap.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && !panel.hidden && !config.page) {
        e.preventDefault();
        hide();
      }
    });
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && e.keyCode !== 229) {
        e.preventDefault();
        submit();
      }
    });
    input.addEventListener('input', autosize);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      submit();
    });
    // The button sends by itself: in a sandboxed frame without allow-forms (the console's preview, or a
    // site's own sandbox) the browser never fires the form's submit event.
    send.addEventListener('click', (e) => {
      e.preventDefault();
      submit();
    });

    document.body.append(host);
    if (config.page) {
      panel.hidden = false;
      input.focus();
    }
    loadApp();
    refreshConversation();

    function open() {
      panel.hidden = false;
      launcher.setAttribute('aria-expanded', 'true');
      launcherIcon.firstChild.setAttribute('d', ICON_CLOSE);
      log.scrollTop = log.scrollHeight;
      input.focus();
    }

    function hide() {
      panel.hidden = true;
      launcher.setAttribute('aria-expanded', 'false');
      launcherIcon.firstChild.setAttribute('d', ICON_CHAT);
      launcher.focus();
    }

    function setTitle(text) {
      state.title = text;
      title.textContent = text;
      panel.setAttribute('aria-label', text);
      launcher.setAttribute('aria-label', `Chat with ${text}`);
    }

    function autosize() {
      input.style.height = 'auto';
      input.style.height = `${Math.min(input.scrollHeight + 2, 120)}px`;
    }

    function restore() {
      try {
        const saved = JSON.parse(sessionStorage.getItem(storeKey) || 'null');
        if (saved && Array.isArray(saved.messages)) {
          state.conversationId = typeof saved.conversationId === 'string' ? saved.conversationId : null;
          if (typeof saved.token === 'string') conversationToken = saved.token;
          state.messages = saved.messages.filter(isMessage);
          for (const m of state.messages) if (m.tools) m.tools = toolLines(m.tools);
        }
      } catch (_) { /* storage blocked or corrupt: start fresh */ }
    }

    function save() {
      try {
        sessionStorage.setItem(storeKey, JSON.stringify({ conversationId: state.conversationId, token: conversationToken || undefined, messages: state.messages.slice(-MAX_STORED) }));
      } catch (_) { /* storage full or blocked: the conversation still works in this page */ }
    }

    function withSources(message, sources) {
      const cited = citableSources(sources);
      if (cited.length) message.sources = cited;
      return message;
    }

    function isMessage(m) {
      // Tool calls and their results run server-side: the visitor sees the question and the answer (with a line per
      // call it took), not an empty assistant message that only carried calls, nor the tools' output.
      return m && (m.role === 'user' || m.role === 'assistant') && typeof m.content === 'string' && !(m.toolCalls && m.content === '');
    }

    /** Stored or received tool lines, kept to a name and a known state. */
    function toolLines(list) {
      return (Array.isArray(list) ? list : [])
        .filter((t) => t && typeof t.name === 'string' && TOOL_STATES.includes(t.state))
        .map((t) => ({ id: typeof t.id === 'string' ? t.id : '', name: t.name.slice(0, 200), state: t.state }));
    }

    /** A conversation's history: the calls of the assistant messages, settled by the tool messages, shown on the answer that follows. */
    function fromHistory(messages) {
      const shown = [];
      let pending = [];
      for (const m of messages) {
        if (m && m.role === 'tool') {
          const call = pending.find((t) => t.id === m.toolCallId);
          if (call) call.state = m.isError ? 'failed' : 'done';
        }
        if (!isMessage(m)) {
          if (m && Array.isArray(m.toolCalls)) pending.push(...m.toolCalls.map((c) => ({ id: c && c.id, name: c && c.name, state: 'failed' })));
          continue;
        }
        const message = withSources({ role: m.role, content: m.content }, m.sources);
        if (m.role === 'assistant' && pending.length) {
          message.tools = toolLines(pending);
          pending = [];
        }
        shown.push(message);
      }
      return shown;
    }

    async function loadApp() {
      try {
        const res = await api(paths.app);
        if (res.status === 401 || res.status === 403) return showError(await failureMessage(res));
        if (!res.ok) return;
        // Counted once per load (analytics); a failure here changes nothing for the visitor.
        if (!config.page) api('/api/v1/widget/loaded', { method: 'POST', body: JSON.stringify({ applicationId: config.appId }) }).catch(() => {});
        const app = await res.json();
        if (!config.title && typeof app.name === 'string' && app.name.trim()) setTitle(app.name.trim());
        applyTheme(app.theme || {});
        applyBranding(app.branding);
      } catch (_) {
        // Refused by the browser (CORS) or offline: say which, before the visitor types anything.
        const problem = await accessProblem();
        if (problem) showError(problem);
      }
    }

    /** The resolved theme's variables: fonts, radius and width always; every colour once the owner chose a theme. */
    function applyTheme(theme) {
      const vars = theme.variables && typeof theme.variables === 'object' ? theme.variables : {};
      const set = (name, key, test) => {
        const value = vars[key];
        if (typeof value === 'string' && value.length <= 200 && test(value)) wrap.style.setProperty(name, value);
      };
      const font = (v) => CSS.supports('font-family', v);
      const length = (v) => CSS.supports('width', v);
      set('--ff', '--ap-font-family', font);
      set('--hf', '--ap-heading-font-family', font);
      set('--fs', '--ap-font-size', length);
      set('--lh', '--ap-line-height', (v) => CSS.supports('line-height', v));
      set('--r', '--ap-layout-border-radius', length);
      set('--mw', '--ap-layout-max-width', length);
      if (!theme.themeId) return applyColors(theme.colors);
      const c = (name) => vars[`--ap-color-${name}`];
      applyColors({ primary: c('primary'), background: c('background'), text: c('text'), accent: c('accent') });
      const slots = { '--mu': 'text-muted', '--bd': 'border', '--bb': 'assistant-bubble', '--bf': 'text', '--ub': 'user-bubble' };
      for (const slot in slots) set(slot, `--ap-color-${slots[slot]}`, (v) => CSS.supports('color', v));
      const onBubble = readableOn(c('user-bubble') || '');
      if (onBubble) wrap.style.setProperty('--uo', onBubble);
      applyColors(theme.colors);
    }

    function applyBranding(branding) {
      if (!branding || typeof branding !== 'object') return;
      attribution.hidden = branding.showAttribution === false;
      if (!config.position && POSITIONS.includes(branding.position)) settings.position = branding.position;
      if (!config.placeholder && typeof branding.placeholder === 'string' && branding.placeholder) input.placeholder = branding.placeholder;
      if (!config.greeting && typeof branding.welcomeMessage === 'string' && branding.welcomeMessage) {
        settings.greeting = branding.welcomeMessage;
        if (!state.streaming) renderAll();
      }
      settings.css = typeof branding.customCss === 'string' ? branding.customCss : '';
      adoptStyles(root, styles(settings.position, config.page), settings.css);
    }

    function applyColors(colors) {
      if (!colors || typeof colors !== 'object') return;
      const slots = { primary: ['--pr', '--on'], secondary: ['--bb', '--bf'], accent: ['--ac'], background: ['--bg'], text: ['--fg'] };
      for (const key in slots) {
        const value = colors[key];
        if (typeof value !== 'string' || value.length > 64 || !CSS.supports('color', value)) continue;
        wrap.style.setProperty(slots[key][0], value);
        const contrast = slots[key][1] && readableOn(value);
        if (contrast) wrap.style.setProperty(slots[key][1], contrast);
      }
    }

    /** White or near-black, whichever reads better on the given colour. */
    function readableOn(color) {
      const probe = h('span', { hidden: '' });
      probe.style.color = color;
      wrap.append(probe);
      const rgb = getComputedStyle(probe).color;
      probe.remove();
      if (!/^rgba?\(/.test(rgb)) return '';
      const [r, g, b] = rgb.match(/[\d.]+/g).slice(0, 3).map((c) => {
        const s = Number(c) / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
      return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? '#fff' : '#111827';
    }

    async function refreshConversation() {
      if (!state.conversationId) return;
      const version = state.version;
      try {
        const res = await api(paths.conversation + encodeURIComponent(state.conversationId));
        if (version !== state.version) return; // the visitor sent something meanwhile: their view wins
        if (res.status === 404) {
          state.conversationId = null;
          state.messages = [];
        } else if (res.ok) {
          const conversation = await res.json();
          if (version !== state.version || !conversation || !Array.isArray(conversation.messages)) return;
          state.messages = fromHistory(conversation.messages);
        } else {
          return;
        }
        save();
        renderAll();
      } catch (_) { /* offline: the stored transcript stays */ }
    }

    function renderAll() {
      log.replaceChildren();
      if (settings.greeting) addBubble('assistant').append(...inline(settings.greeting));
      for (const message of state.messages) renderMessage(addBubble(message.role), message);
      log.scrollTop = log.scrollHeight;
    }

    function addBubble(role) {
      const stick = log.scrollHeight - log.scrollTop - log.clientHeight < 48;
      const bubble = h('div', { class: `m ${role === 'user' ? 'u' : role === 'assistant' ? 'a' : 'e'}` });
      log.append(bubble);
      if (stick) log.scrollTop = log.scrollHeight;
      return bubble;
    }

    function renderMessage(bubble, message) {
      const stick = log.scrollHeight - log.scrollTop - log.clientHeight < 48;
      const tools = message.tools && message.tools.length
        ? [h('ul', { class: 'tl', 'aria-label': 'Tools used' }, message.tools.map((t) => h('li', { class: t.state }, ['Used ', h('b', {}, [t.name]), ` \u2014 ${t.state}`])))]
        : [];
      if (message.role === 'user') bubble.textContent = message.content;
      else if (message.content) {
        bubble.replaceChildren(...tools, markdown(message.content));
        const cited = citableSources(message.sources);
        if (cited.length) {
          const items = cited.map((s) => h('li', {}, s.excerpt ? [h('b', {}, [s.fileName]), h('q', {}, [s.excerpt])] : [h('b', {}, [s.fileName])]));
          bubble.append(h('div', { class: 'cs', role: 'note', 'aria-label': 'Sources' }, [h('p', {}, ['Sources']), h('ol', {}, items)]));
        }
      }
      else bubble.replaceChildren(...tools, h('span', { class: 'dots' }, [h('i'), h('i'), h('i'), h('span', { class: 'sr' }, ['Writing an answer…'])]));
      if (stick) log.scrollTop = log.scrollHeight;
    }

    function showError(text) {
      addBubble('error').textContent = text;
    }

    function clearErrors() {
      for (const el of log.querySelectorAll('.e')) el.remove();
    }

    function setStreaming(on) {
      state.streaming = on;
      send.disabled = on;
      log.setAttribute('aria-busy', String(on));
    }

    function rememberConversation(id) {
      if (typeof id === 'string' && id && id !== state.conversationId) {
        state.conversationId = id;
        save();
      }
    }

    function submit() {
      const text = input.value.trim();
      if (!text || state.streaming) return;
      input.value = '';
      autosize();
      converse(text);
    }

    async function converse(text) {
      state.version++;
      clearErrors();
      const question = { role: 'user', content: text };
      const answer = { role: 'assistant', content: '' };
      state.messages.push(question);
      save();
      const questionBubble = addBubble('user');
      renderMessage(questionBubble, question);
      const answerBubble = addBubble('assistant');
      renderMessage(answerBubble, answer);
      setStreaming(true);
      let problem = '';
      let finished = false;
      try {
        const body = config.page ? { message: text } : { message: text, applicationId: config.appId };
        if (state.conversationId) body.conversationId = state.conversationId;
        const res = await api(paths.stream, { method: 'POST', body: JSON.stringify(body) });
        if (!res.ok || !res.body) {
          problem = res.ok ? 'The answer could not be read. Please try again.' : await failureMessage(res);
        } else {
          if (res.headers.get('X-Conversation-Token')) conversationToken = res.headers.get('X-Conversation-Token');
          rememberConversation(res.headers.get('X-Conversation-Id'));
          await readEvents(res.body, (event) => {
            if (event.type === 'chunk' && typeof event.content === 'string') {
              answer.content += event.content;
              renderMessage(answerBubble, answer);
            } else if (event.type === 'tool_call' && typeof event.name === 'string') {
              (answer.tools = answer.tools || []).push({ id: typeof event.id === 'string' ? event.id : '', name: event.name.slice(0, 200), state: 'running' });
              renderMessage(answerBubble, answer);
            } else if (event.type === 'tool_result') {
              const call = (answer.tools || []).find((t) => t.id === event.toolCallId && t.state === 'running');
              if (call) call.state = event.isError ? 'failed' : 'done';
              renderMessage(answerBubble, answer);
            } else if (event.type === 'done') {
              if (typeof event.fullResponse === 'string') answer.content = event.fullResponse;
              withSources(answer, event.sources);
              rememberConversation(event.conversationId);
              return (finished = true);
            } else if (event.type === 'error') {
              problem = event.statusCode === 424 ? PROVIDER_KEY_REFUSED : readable(event.message) || 'The answer could not be completed. Please try again.';
              return true;
            }
            return false;
          });
          if (!finished && !problem) problem = 'The answer was interrupted. Please try again.';
        }
      } catch (_) {
        problem = (await accessProblem()) || 'Could not reach the chat service. Please check your connection and try again.';
      }
      // A call without a result (the turn's time ran out, or the answer broke off) did not finish.
      for (const t of answer.tools || []) if (t.state === 'running') t.state = 'failed';
      if (answer.content) {
        state.messages.push(answer);
        renderMessage(answerBubble, answer);
      } else {
        // Nothing came back: take the question back so the visitor can simply send it again.
        answerBubble.remove();
        if (problem) {
          questionBubble.remove();
          state.messages.splice(state.messages.lastIndexOf(question), 1);
          if (!input.value) input.value = text;
        }
      }
      save();
      setStreaming(false);
      if (problem) showError(problem);
    }
  }

  // Last, so every constant above is initialised before the widget renders.
  if (document.body) mount();
  else document.addEventListener('DOMContentLoaded', mount, { once: true });
})();
