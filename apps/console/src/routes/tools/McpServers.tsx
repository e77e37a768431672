import { Pencil, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { fieldErrors } from '../../lib/errors';
import { useAddMcpServer, useDeleteMcpServer, useMcpServers, useRefreshMcpServer, useUpdateMcpServer, type McpServer, type McpServerBody } from './queries';
import { s } from './strings';

type Transport = NonNullable<McpServerBody['transport']>;
interface HeaderDraft {
  name: string;
  value: string;
}

/** The headers typed in the form, as the API takes them; the platform seals every value and answers only names. */
function typedHeaders(headers: HeaderDraft[]): Record<string, string> {
  return Object.fromEntries(headers.filter((h) => h.name.trim()).map((h) => [h.name.trim(), h.value]));
}

/** On a change: a header already set keeps its value unless a new one is typed, and one marked for removal is sent as null. */
function headerChanges(headers: HeaderDraft[], kept: KeptHeader[]): Record<string, string | null> {
  return { ...Object.fromEntries(kept.filter((h) => h.removed || h.value).map((h) => [h.name, h.removed ? null : h.value])), ...typedHeaders(headers) };
}

/** A header the server already has: its value is never shown; a new one replaces it, or it is removed. */
interface KeptHeader {
  name: string;
  value: string;
  removed: boolean;
}

/** The application's MCP servers: their cached tool lists with a refresh, adding one, deleting one. */
export function McpServers({ appId, blocked }: { appId: string; blocked: boolean }) {
  const servers = useMcpServers(appId);
  const remove = useDeleteMcpServer(appId);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<McpServer | null>(null);
  const [deleting, setDeleting] = useState<McpServer | null>(null);
  const add = (
    <Button variant="primary" disabled={blocked} aria-describedby={blocked ? 'tools-blocked' : undefined} onClick={() => setAdding(true)}>
      <Plus aria-hidden size={16} />
      {s.addServer}
    </Button>
  );

  let body;
  if (servers.isPending) body = <Loading />;
  else if (servers.isError) body = <ErrorState error={servers.error} onRetry={() => void servers.refetch()} />;
  else if (!servers.data.length) body = <EmptyState title={s.noServers} action={add}>{s.noServersBody}</EmptyState>;
  else body = servers.data.map((server) => (
      <ServerCard key={server.id} appId={appId} server={server} blocked={blocked} onEdit={() => setEditing(server)} onDelete={() => setDeleting(server)} />
    ));

  return (
    <section className="ap-stack" aria-labelledby="mcp-servers-heading">
      <div className="ap-actions">
        <h2 id="mcp-servers-heading">{s.servers}</h2>
        {servers.data?.length ? add : null}
      </div>
      <p className="ap-muted">{s.serversHint}</p>
      {body}
      {adding ? <ServerDialog appId={appId} onClose={() => setAdding(false)} /> : null}
      {editing ? <ServerDialog appId={appId} server={editing} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={deleting ? s.removeServerTitle(deleting.name!) : ''}
        description={s.removeServerBody}
        confirmLabel={s.removeServerConfirm}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(deleting!.id!, { onSuccess: () => setDeleting(null) })}
      />
    </section>
  );
}

function ServerCard({ appId, server, blocked, onEdit, onDelete }: { appId: string; server: McpServer; blocked: boolean; onEdit(): void; onDelete(): void }) {
  const refresh = useRefreshMcpServer(appId);
  const headingId = `mcp-server-${server.id}`;
  return (
    <article className="ap-card ap-stack" aria-labelledby={headingId}>
      <div className="ap-actions">
        <h3 id={headingId}>{server.name}</h3>
        <code>{server.url}</code>
        <Button busy={refresh.isPending} disabled={blocked} aria-describedby={blocked ? 'tools-blocked' : undefined} onClick={() => refresh.mutate(server.id!)}>
          <RefreshCw aria-hidden size={16} />
          {s.refreshServer(server.name!)}
        </Button>
        <Button aria-label={s.editServer(server.name!)} disabled={blocked} aria-describedby={blocked ? 'tools-blocked' : undefined} onClick={onEdit}>
          <Pencil aria-hidden size={16} />
        </Button>
        <Button variant="danger" aria-label={s.removeServer(server.name!)} disabled={blocked} aria-describedby={blocked ? 'tools-blocked' : undefined} onClick={onDelete}>
          <Trash2 aria-hidden size={16} />
        </Button>
      </div>
      <p className="ap-muted">
        {s.transportLine(server.connectedWith ?? server.transport, server.toolsRefreshedAt ? new Date(server.toolsRefreshedAt).toLocaleString() : null)}
        {server.headerNames?.length ? ` ${s.headersLine(server.headerNames.join(', '))}` : ''}
      </p>
      {refresh.isError ? <ErrorText error={refresh.error} /> : server.lastError ? <p className="ap-error-text">{s.lastError(server.lastError)}</p> : null}
      {server.tools?.length ? (
        <DataTable
          caption={s.serverTools(server.name!)}
          rows={server.tools}
          rowKey={(tool) => tool.name!}
          columns={[
            { header: s.serverColumns.tool, cell: (tool) => <code>{tool.name}</code> },
            { header: s.serverColumns.exposedAs, cell: (tool) => (tool.problem ? s.notOffered(tool.problem) : <code>{tool.exposedAs}</code>) },
            { header: s.serverColumns.description, cell: (tool) => tool.description },
          ]}
        />
      ) : (
        <p className="ap-muted">{s.noServerTools}</p>
      )}
    </article>
  );
}

/** Adds an MCP server, or changes one (`server`): a new address, transport or headers list its tools again. */
function ServerDialog({ appId, server, onClose }: { appId: string; server?: McpServer; onClose(): void }) {
  const add = useAddMcpServer(appId);
  const update = useUpdateMcpServer(appId);
  const save = server ? update : add;
  const [name, setName] = useState(server?.name ?? '');
  const [url, setUrl] = useState(server?.url ?? '');
  const [transport, setTransport] = useState<Transport>(server?.transport ?? 'auto');
  const [timeoutMs, setTimeoutMs] = useState(String(server?.timeoutMs ?? 10000));
  const [kept, setKept] = useState<KeptHeader[]>((server?.headerNames ?? []).map((n) => ({ name: n, value: '', removed: false })));
  const [headers, setHeaders] = useState<HeaderDraft[]>([]);
  const errors = fieldErrors(save.error, ['name', 'url', 'transport', 'headers', 'secrets', 'timeoutMs'] as const);
  const shown = Object.keys(errors).length > 0;
  const setHeader = (i: number, patch: Partial<HeaderDraft>) => setHeaders((list) => list.map((h, j) => (j === i ? { ...h, ...patch } : h)));
  const setKeptHeader = (i: number, patch: Partial<KeptHeader>) => setKept((list) => list.map((h, j) => (j === i ? { ...h, ...patch } : h)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const fields = { name: name.trim(), url: url.trim(), transport, timeoutMs: Number(timeoutMs) || 10000 };
    const withHeaders = <T,>(h: Record<string, T>) => (Object.keys(h).length ? { ...fields, headers: h } : fields);
    if (server) update.mutate({ serverId: server.id!, body: withHeaders(headerChanges(headers, kept)) }, { onSuccess: onClose });
    else add.mutate(withHeaders(typedHeaders(headers)), { onSuccess: onClose });
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={server ? s.editServerTitle(server.name!) : s.addServerTitle}>
      <form className="ap-stack" onSubmit={submit} noValidate>
        <Field label={s.serverName} hint={s.serverNameHint} value={name} onChange={(e) => setName(e.target.value)} error={errors.name} required />
        <Field label={s.serverUrl} hint={s.serverUrlHint} value={url} onChange={(e) => setUrl(e.target.value)} error={errors.url} required />
        <div className="ap-field">
          <label htmlFor="mcp-transport">{s.transport}</label>
          <select id="mcp-transport" className="ap-select" value={transport} onChange={(e) => setTransport(e.target.value as Transport)}>
            {Object.entries(s.transports).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <Field label={s.timeout} type="number" min={100} max={60000} step={1000} value={timeoutMs} onChange={(e) => setTimeoutMs(e.target.value)} error={errors.timeoutMs} />
        <fieldset className="ap-stack">
          <legend>{s.headers}</legend>
          <p className="ap-field__hint">{s.serverHeadersHint}</p>
          {kept.map((header, i) => (
            <div key={header.name} className="ap-actions">
              {header.removed ? (
                <>
                  <p className="ap-muted">{s.headerRemoved(header.name)}</p>
                  <Button onClick={() => setKeptHeader(i, { removed: false })}>{s.keepHeader(header.name)}</Button>
                </>
              ) : (
                <>
                  <Field label={s.newHeaderValue(header.name)} hint={s.keptHeaderHint} type="password" autoComplete="off" value={header.value} onChange={(e) => setKeptHeader(i, { value: e.target.value })} />
                  <Button aria-label={s.removeKeptHeader(header.name)} onClick={() => setKeptHeader(i, { removed: true, value: '' })}>
                    <Trash2 aria-hidden size={16} />
                  </Button>
                </>
              )}
            </div>
          ))}
          {headers.map((header, i) => (
            <div key={i} className="ap-actions">
              <Field label={s.headerName(kept.length + i + 1)} value={header.name} onChange={(e) => setHeader(i, { name: e.target.value })} />
              <Field label={s.headerValue(kept.length + i + 1)} type="password" autoComplete="off" value={header.value} onChange={(e) => setHeader(i, { value: e.target.value })} />
              <Button aria-label={s.removeHeader(kept.length + i + 1)} onClick={() => setHeaders((list) => list.filter((_, j) => j !== i))}>
                <Trash2 aria-hidden size={16} />
              </Button>
            </div>
          ))}
          <div>
            <Button onClick={() => setHeaders((list) => [...list, { name: '', value: '' }])}>{s.addHeader}</Button>
          </div>
          {errors.headers || errors.secrets ? (
            <p className="ap-field__error" role="alert">
              {errors.headers ?? errors.secrets}
            </p>
          ) : null}
        </fieldset>
        {save.isError && !shown ? <ErrorText error={save.error} /> : null}
        <div className="ap-actions">
          <Button type="submit" variant="primary" busy={save.isPending}>
            {server ? s.editServerConfirm : s.addServerConfirm}
          </Button>
          <Button onClick={onClose}>{s.cancel}</Button>
        </div>
      </form>
    </Dialog>
  );
}
