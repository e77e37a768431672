/** Hooks of EXTENSIONS.md: filters change a value on the request path; actions run after it. */
export const HOOKS = {
  'message:beforeSend': 'filter',
  'message:afterReceive': 'action',
  'conversation:start': 'action',
  'conversation:end': 'action',
  'knowledge:documentReady': 'action',
  'plugin:activated': 'action',
  'plugin:deactivated': 'action',
} as const;
export type HookName = keyof typeof HOOKS;
export const isHookName = (name: string): name is HookName => Object.prototype.hasOwnProperty.call(HOOKS, name);

export const DEFAULT_PRIORITY = 10;
export const ENDPOINT_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type EndpointMethod = (typeof ENDPOINT_METHODS)[number];

/**
 * What a plugin's `definePlugin({...})` declared, as the sandbox reports it (names and metadata only;
 * the handlers stay inside the isolate).
 */
export interface PluginDefinition {
  hooks: { name: HookName; priority: number }[];
  endpoints: { method: EndpointMethod; path: string; auth: boolean; description?: string }[];
  cron: { name: string; schedule: string; timezone?: string }[];
  on: string[];
  webhooks: { name: string; events: string[] }[];
  adminPages: { path: string; title: string; icon?: string; component?: string; group?: string }[];
  onActivate: boolean;
  onDeactivate: boolean;
  /** Functions the application's model may call (docs/plugins.md "Tools"), checked when the code is loaded. */
  tools: PluginToolDeclaration[];
}

/** A tool a plugin declares: what the model is shown; the handler stays in the isolate. */
export interface PluginToolDeclaration {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object at the top). */
  parameters: Record<string, unknown>;
  /** Wall time of one call (ms), within the plugin's call limit. */
  timeoutMs?: number;
}

/** Where a call goes inside the plugin. */
export type PluginTarget =
  | { kind: 'hook'; name: HookName }
  | { kind: 'endpoint'; name: string }
  | { kind: 'cron'; name: string }
  | { kind: 'event'; name: string }
  | { kind: 'webhook'; name: string }
  | { kind: 'tool'; name: string }
  | { kind: 'lifecycle'; name: 'onActivate' | 'onDeactivate' };

/** `<n>s|m|h|d` (EXTENSIONS.md "Cron"): its period in milliseconds, or null when `schedule` is a cron expression. */
export function shorthandPeriodMs(schedule: string): number | null {
  const m = /^(\d{1,6})([smhd])$/.exec(schedule.trim());
  if (!m) return null;
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 's' | 'm' | 'h' | 'd'];
  return Number(m[1]) * unit;
}

export const MIN_CRON_PERIOD_MS = 10_000;
/** Depth limit of the event bus (EXTENSIONS.md): an event emitted at this depth is dropped. */
export const MAX_EVENT_DEPTH = 8;
