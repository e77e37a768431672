import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ApplicationScope, type ApplicationChoice } from '../../components/ApplicationScope';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyButton } from '../../components/CopyButton';
import { DataTable } from '../../components/DataTable';
import { Field } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { t } from '../../lib/strings';
import { useAgentSettings, useAvailableTools, useDeleteTool, useSaveAgentSettings, useTeamRoles, useTools, type AgentSettings, type Tool } from './queries';
import { kindOf } from './sources';
import { s } from './strings';
import { McpServers } from './McpServers';
import { ToolDialog } from './ToolDialog';

/** An application's tools, its agent settings and the MCP connection panel. */
export default function Tools() {
  return (
    <div className="ap-stack">
      <PageHeader title={s.title} description={s.description} />
      <ApplicationScope id="tools-app" emptyBody={s.needsApp}>
        {(appId, application) => (
          <div key={appId} className="ap-stack">
            <Blocked application={application}>
              {(blocked) => (
                <>
                  <ToolList appId={appId} blocked={blocked} />
                  <McpServers appId={appId} blocked={blocked} />
                  <AgentPanel appId={appId} blocked={blocked} />
                </>
              )}
            </Blocked>
            <McpPanel appId={appId} />
          </div>
        )}
      </ApplicationScope>
    </div>
  );
}

/**
 * Why the caller may not change this application's tools, or null when they may: a team application needs the
 * Member role or above (the API answers 403 otherwise). Said once above the lists; the actions are disabled.
 */
function Blocked({ application, children }: { application: ApplicationChoice; children: (blocked: boolean) => ReactNode }) {
  const teams = useTeamRoles();
  const role = application.teamId ? teams.data?.find((t) => t.id === application.teamId)?.role : undefined;
  const reason = role === 'viewer' ? s.roleCannot(role) : null; // unknown roles: the API stays the authority
  return (
    <>
      {reason ? (
        <p className="ap-muted" id="tools-blocked">
          {reason}
        </p>
      ) : null}
      {children(!!reason)}
    </>
  );
}

function ToolList({ appId, blocked }: { appId: string; blocked: boolean }) {
  const tools = useTools(appId);
  const remove = useDeleteTool(appId);
  const [editing, setEditing] = useState<Tool | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<Tool | null>(null);
  const create = (
    <Button variant="primary" disabled={blocked} aria-describedby={blocked ? 'tools-blocked' : undefined} onClick={() => setEditing(null)}>
      <Plus aria-hidden size={16} />
      {s.newTool}
    </Button>
  );

  let body;
  if (tools.isPending) body = <Loading />;
  else if (tools.isError) body = <ErrorState error={tools.error} onRetry={() => void tools.refetch()} />;
  else if (!tools.data.length) body = <EmptyState title={s.empty} action={create}>{s.emptyBody}</EmptyState>;
  else
    body = (
      <DataTable
        rows={tools.data}
        rowKey={(tool) => tool.id!}
        columns={[
          { header: s.columns.name, cell: (tool) => <code>{tool.name}</code> },
          { header: s.columns.source, cell: (tool) => (tool.source ? (s.kinds[kindOf(tool.source)] ?? kindOf(tool.source)) : '') },
          { header: s.columns.description, cell: (tool) => tool.description },
          { header: s.columns.secrets, cell: (tool) => (tool.secretNames?.length ? tool.secretNames.map((n) => `${n} (${s.secretSet})`).join(', ') : '—') },
          {
            header: <span className="ap-visually-hidden">{t.actions}</span>,
            cell: (tool) => (
              <div className="ap-actions">
                <Button aria-label={s.edit(tool.name!)} disabled={blocked} aria-describedby={blocked ? 'tools-blocked' : undefined} onClick={() => setEditing(tool)}>
                  <Pencil aria-hidden size={16} />
                </Button>
                <Button aria-label={s.remove(tool.name!)} variant="danger" disabled={blocked} aria-describedby={blocked ? 'tools-blocked' : undefined} onClick={() => setDeleting(tool)}>
                  <Trash2 aria-hidden size={16} />
                </Button>
              </div>
            ),
          },
        ]}
      />
    );

  return (
    <section className="ap-stack" aria-labelledby="tools-heading">
      <div className="ap-actions">
        <h2 id="tools-heading">{s.tools}</h2>
        {tools.data?.length ? create : null}
      </div>
      {body}
      {editing !== undefined ? <ToolDialog appId={appId} tool={editing} onClose={() => setEditing(undefined)} /> : null}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={deleting ? s.removeTitle(deleting.name!) : ''}
        description={s.removeBody}
        confirmLabel={s.removeConfirm}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(deleting!.id!, { onSuccess: () => setDeleting(null) })}
      />
    </section>
  );
}

function AgentPanel({ appId, blocked }: { appId: string; blocked: boolean }) {
  const agent = useAgentSettings(appId);
  const available = useAvailableTools(appId);
  const save = useSaveAgentSettings(appId);
  const [draft, setDraft] = useState<AgentSettings | null>(null);
  useEffect(() => {
    if (agent.data) setDraft(agent.data);
  }, [agent.data]);
  const set = (patch: Partial<AgentSettings>) => setDraft((d) => (d ? { ...d, ...patch } : d));
  const field = (name: string) => (save.error instanceof Error && 'fieldMessage' in save.error ? (save.error as { fieldMessage(f: string): string | undefined }).fieldMessage(name) : undefined);

  let body;
  if (agent.isPending || !draft) body = agent.isError ? <ErrorState error={agent.error} onRetry={() => void agent.refetch()} /> : <Loading />;
  else {
    const enabled = draft.enabledTools ?? [];
    // Every tool the API lists (own, plugin, MCP), then enabled names it no longer lists (kept until saved again).
    const listed = available.data ?? [];
    const byName = new Map(listed.map((t) => [t.name!, t]));
    const names = [...new Set([...listed.map((t) => t.name!), ...enabled])];
    const choice = typeof draft.toolChoice === 'object' ? `tool:${draft.toolChoice.name}` : (draft.toolChoice ?? 'auto');
    const submit = (event: FormEvent) => {
      event.preventDefault();
      save.mutate(draft);
    };
    body = (
      <form className="ap-stack" onSubmit={submit} noValidate>
        <fieldset className="ap-stack">
          <legend>{s.enabledTools}</legend>
          {available.isError ? <ErrorText error={available.error} /> : null}
          {names.length ? (
            names.map((name) => (
              <label key={name} className="ap-field--inline ap-field">
                <input
                  type="checkbox"
                  checked={enabled.includes(name)}
                  disabled={byName.get(name)?.available === false && !enabled.includes(name)}
                  onChange={(e) => set({ enabledTools: e.target.checked ? [...enabled, name] : enabled.filter((n) => n !== name) })}
                />
                <code>{name}</code>
                {byName.get(name)?.origin ? <span className="ap-muted">({s.origins[byName.get(name)!.origin!] ?? byName.get(name)!.origin})</span> : null}
                {byName.get(name)?.available === false ? <span className="ap-muted">{s.unavailable(byName.get(name)!.reason ?? '')}</span> : null}
              </label>
            ))
          ) : (
            <p className="ap-muted">{s.noToolsToEnable}</p>
          )}
          {field('enabledTools') ? (
            <p className="ap-field__error" role="alert">
              {field('enabledTools')}
            </p>
          ) : null}
        </fieldset>
        <div className="ap-field">
          <label htmlFor="agent-choice">{s.toolChoice}</label>
          <select id="agent-choice" className="ap-select" value={choice} onChange={(e) => set({ toolChoice: e.target.value.startsWith('tool:') ? { name: e.target.value.slice(5) } : (e.target.value as 'auto') })}>
            {Object.entries(s.choices).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
            {enabled.map((name) => (
              <option key={name} value={`tool:${name}`}>
                {s.forceTool(name)}
              </option>
            ))}
          </select>
        </div>
        <Field label={s.maxToolRounds} type="number" min={1} max={20} value={draft.maxToolRounds ?? 5} onChange={(e) => set({ maxToolRounds: Number(e.target.value) })} error={field('maxToolRounds')} />
        <Field label={s.timeBudget} type="number" min={1000} max={300000} step={1000} value={draft.timeBudgetMs ?? 60000} onChange={(e) => set({ timeBudgetMs: Number(e.target.value) })} error={field('timeBudgetMs')} />
        <label className="ap-field--inline ap-field">
          <input type="checkbox" checked={draft.parallelCalls ?? true} onChange={(e) => set({ parallelCalls: e.target.checked })} />
          {s.parallelCalls}
        </label>
        {save.isError && !(field('enabledTools') || field('maxToolRounds') || field('timeBudgetMs')) ? <ErrorText error={save.error} /> : null}
        <div className="ap-actions">
          <Button type="submit" variant="primary" busy={save.isPending} disabled={blocked} aria-describedby={blocked ? 'tools-blocked' : undefined}>
            {s.saveAgent}
          </Button>
          {save.isSuccess ? (
            <span role="status" className="ap-muted">
              {s.agentSaved}
            </span>
          ) : null}
        </div>
      </form>
    );
  }
  return (
    <section className="ap-card ap-stack" aria-labelledby="agent-heading">
      <h2 id="agent-heading">{s.agent}</h2>
      <p className="ap-muted">{s.agentHint}</p>
      {body}
    </section>
  );
}

function McpPanel({ appId }: { appId: string }) {
  const url = `${window.location.origin}/api/v1/mcp`;
  const config = JSON.stringify({ mcpServers: { application: { type: 'http', url, headers: { Authorization: 'Bearer <this application’s API key>' } } } }, null, 2);
  return (
    <section className="ap-card ap-stack" aria-labelledby="mcp-heading">
      <h2 id="mcp-heading">{s.mcp}</h2>
      <p>{s.mcpBody}</p>
      <div className="ap-field">
        <label htmlFor="mcp-url">{s.mcpUrl}</label>
        <div className="ap-actions">
          <input id="mcp-url" className="ap-code-input" readOnly value={url} />
          <CopyButton value={url} label={s.copyUrl} />
        </div>
      </div>
      <div className="ap-field">
        <label htmlFor="mcp-config">{s.mcpConfig}</label>
        <textarea id="mcp-config" className="ap-code-input" readOnly rows={12} value={config} />
        <div className="ap-actions">
          <CopyButton value={config} label={s.copyConfig} />
          <Link to={`/api-keys?app=${appId}`}>{s.mcpKeys}</Link>
        </div>
      </div>
    </section>
  );
}
