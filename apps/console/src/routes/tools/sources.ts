import type { ToolSource } from './queries';

/**
 * The tool source kinds the form offers, one entry each: its label and the fields it needs are in ToolDialog's
 * `SourceFields`; a new kind from the API (plugin tools, remote MCP servers) is one more entry here and one case there.
 */
export const SOURCE_KINDS = ['http', 'search_knowledge', 'run_workflow'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export interface SourceDraft {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers: string;
  allowedHosts: string;
  workflowId: string;
}

export function kindOf(source: ToolSource): SourceKind {
  return source.type === 'http' ? 'http' : source.builtin;
}

export function draftOf(source: ToolSource | undefined): SourceDraft {
  const draft: SourceDraft = { method: 'POST', url: '', headers: '', allowedHosts: '', workflowId: '' };
  if (source?.type === 'http') {
    draft.method = source.method ?? 'POST';
    draft.url = source.url;
    draft.headers = Object.entries(source.headers ?? {})
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n');
    draft.allowedHosts = (source.allowedHosts ?? []).join('\n');
  } else if (source?.type === 'builtin' && source.builtin === 'run_workflow') draft.workflowId = source.workflowId;
  return draft;
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

export function sourceOf(kind: SourceKind, draft: SourceDraft): ToolSource {
  switch (kind) {
    case 'http': {
      const headers: Record<string, string> = {};
      for (const line of lines(draft.headers)) {
        const at = line.indexOf(':');
        if (at > 0) headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
        else headers[line] = '';
      }
      const allowedHosts = lines(draft.allowedHosts);
      return { type: 'http', method: draft.method, url: draft.url.trim(), headers, ...(allowedHosts.length ? { allowedHosts } : {}) };
    }
    case 'search_knowledge':
      return { type: 'builtin', builtin: 'search_knowledge' };
    case 'run_workflow':
      return { type: 'builtin', builtin: 'run_workflow', workflowId: draft.workflowId.trim() };
  }
}
