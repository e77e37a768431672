/**
 * The code run in each new isolate before the plugin's own: it builds `platform` and `definePlugin`
 * over one host reference (`$0`) and answers the function the host calls into (`invoke`). Everything
 * crosses as JSON text; the plugin never holds a host object.
 */
export const BOOTSTRAP = String.raw`
const host = $0;
const settings = JSON.parse($1);
const MAX_RESULT = $2;
let definition = null;
let depth = 0;
const deepFreeze = (o) => { if (o && typeof o === 'object') { Object.values(o).forEach(deepFreeze); Object.freeze(o); } return o; };
const call = (op, args) =>
  host.apply(undefined, [op, JSON.stringify(args)], { arguments: { copy: true }, result: { promise: true, copy: true } })
    .then((text) => { const r = JSON.parse(text); if (!r.ok) throw new Error(r.error); return r.value; });
const fire = (op, args) => { host.applyIgnored(undefined, [op, JSON.stringify(args)], { arguments: { copy: true } }); };
const log = (level) => (...parts) => fire('log', [level, parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' ')]);
const platform = deepFreeze({
  kv: {
    set: (key, value, options) => call('kv.set', [key, value === undefined ? null : value, options]),
    get: (key) => call('kv.get', [key]),
    find: (query) => call('kv.find', [query]),
    keys: (prefix) => call('kv.keys', [prefix === undefined ? '' : prefix]),
    count: (where) => call('kv.count', [where]),
    delete: (key) => call('kv.delete', [key]),
  },
  events: { emit: (name, data) => { fire('events.emit', [name, data === undefined ? null : data, depth]); } },
  fetch: (url, init) => call('fetch', [Object.assign({}, init || {}, { url: String(url) })])
    .then((r) => Object.assign(r, { ok: r.status >= 200 && r.status < 300, text: () => r.body, json: () => JSON.parse(r.body) })),
  log: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
  settings: deepFreeze(settings),
});
Object.defineProperty(globalThis, 'platform', { value: platform, writable: false, configurable: false });
Object.defineProperty(globalThis, 'definePlugin', {
  value: (d) => { if (definition) throw new Error('definePlugin may be called once'); if (!d || typeof d !== 'object') throw new Error('definePlugin needs an object'); definition = d; },
  writable: false, configurable: false,
});
const fn = (v) => (typeof v === 'function' ? v : v && typeof v.handler === 'function' ? v.handler : null);
const str = (v, fallback) => (typeof v === 'string' ? v : fallback);
const handlerOf = (kind, name) => {
  const d = definition || {};
  if (kind === 'hook') return fn((d.hooks || {})[name]);
  if (kind === 'event') return fn((d.on || {})[name]);
  if (kind === 'lifecycle') return fn(d[name]);
  if (kind === 'cron') { const c = (d.cron || []).find((c) => c && c.name === name); return c ? fn(c) : null; }
  if (kind === 'tool') { const t = (Array.isArray(d.tools) ? d.tools : []).find((t) => t && t.name === name); return t ? fn(t) : null; }
  if (kind === 'webhook') { const w = (d.webhooks || []).find((w) => w && w.name === name); return w ? fn(w) : null; }
  if (kind === 'endpoint') {
    const [method, path] = name.split(' ');
    const norm = (p) => String(p).split('/').filter(Boolean);
    const want = norm(path);
    const e = (d.endpoints || []).find((e) => e && String(e.method || 'GET').toUpperCase() === method &&
      norm(e.path).length === want.length && norm(e.path).every((s, i) => s.startsWith(':') || s === want[i]));
    return e ? fn(e) : null;
  }
  return null;
};
const describe = () => {
  if (!definition) throw new Error('the plugin did not call definePlugin({...})');
  const d = definition;
  const hooks = Object.entries(d.hooks || {}).filter(([, h]) => fn(h)).map(([name, h]) => ({ name, priority: typeof h === 'object' && typeof h.priority === 'number' ? h.priority : 10 }));
  return {
    hooks,
    endpoints: (Array.isArray(d.endpoints) ? d.endpoints : []).filter((e) => e && fn(e)).map((e) => ({ method: String(e.method || 'GET').toUpperCase(), path: str(e.path, '/'), auth: e.auth === true, description: str(e.description, undefined) })),
    cron: (Array.isArray(d.cron) ? d.cron : []).filter((c) => c && fn(c)).map((c) => ({ name: str(c.name, ''), schedule: str(c.schedule, ''), timezone: str(c.timezone, undefined) })),
    on: Object.entries(d.on || {}).filter(([, h]) => fn(h)).map(([name]) => name),
    webhooks: (Array.isArray(d.webhooks) ? d.webhooks : []).filter((w) => w && fn(w)).map((w) => ({ name: str(w.name, ''), events: Array.isArray(w.events) ? w.events.filter((e) => typeof e === 'string') : [] })),
    adminPages: (Array.isArray(d.adminPages) ? d.adminPages : []).filter((p) => p && typeof p.path === 'string').map((p) => ({ path: p.path, title: str(p.title, p.path), icon: str(p.icon, undefined), component: str(p.component, undefined), group: str(p.group, undefined) })),
    onActivate: typeof d.onActivate === 'function',
    onDeactivate: typeof d.onDeactivate === 'function',
    tools: (Array.isArray(d.tools) ? d.tools : []).filter((t) => t && fn(t)).map((t) => ({
      name: str(t.name, ''),
      description: str(t.description, ''),
      parameters: t.parameters === undefined ? { type: 'object', properties: {} } : t.parameters,
      timeoutMs: typeof t.timeoutMs === 'number' ? t.timeoutMs : undefined,
    })),
  };
};
return async function invoke(kind, name, argText, callDepth) {
  if (kind === 'describe') return JSON.stringify(describe());
  const handler = handlerOf(kind, name);
  if (!handler) throw new Error('no handler for ' + kind + ' ' + name);
  depth = callDepth;
  const arg = JSON.parse(argText);
  const result = await (kind === 'webhook' ? handler(arg.event, arg.payload) : handler(arg));
  depth = callDepth;
  if (result === undefined) return 'null';
  let text;
  try { text = JSON.stringify(result); } catch (e) { throw new Error('the handler returned a value that is not JSON (' + e.message + ')'); }
  if (typeof text !== 'string') throw new Error('the handler returned a value that is not JSON');
  if (text.length > MAX_RESULT) throw new Error('the handler returned ' + text.length + ' characters, over the limit of ' + MAX_RESULT);
  return text;
};
`;
