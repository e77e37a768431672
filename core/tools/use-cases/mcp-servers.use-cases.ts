import * as yup from 'yup';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { AccessAction } from '../../access/roles';
import type { Actor } from '../../shared/actor';
import { ConflictError, NotFoundError, UpstreamError, ValidationError } from '../../shared/errors';
import { isUuid, newId } from '../../shared/ids';
import type { SecretBox } from '../../shared/secret-box.port';
import { num, str, validate } from '../../shared/validation';
import { urlProblemOf } from '../../shared/outbound-url-rules.port';
import { MAX_MCP_SERVERS_PER_APPLICATION, MCP_SERVER_NAME, MCP_TRANSPORTS, mcpHeaderAad, mcpSecretAad, toMcpServerView, type McpServer, type McpServerView, type McpTransportChoice } from '../domain/mcp-server';
import { DEFAULT_TOOL_TIMEOUT_MS, MAX_TOOL_TIMEOUT_MS } from '../domain/tool';
import { parseHeaders, parseToolSecrets } from '../domain/tool-input';
import type { JsonSchemaChecker } from '../ports/json-schema.port';
import type { McpClient } from '../ports/mcp-client.port';
import type { McpServerRepository } from '../ports/mcp-server-repository.port';
import { refreshMcpTools } from './mcp-tools';

export interface McpServerDeps {
  servers: McpServerRepository;
  applications: ApplicationRepository;
  client: McpClient;
  schemas: JsonSchemaChecker;
  secretBox: SecretBox;
}

const MAX_URL = 2048;
const fields = {
  name: () => str().matches(MCP_SERVER_NAME, 'name must be 1 to 32 letters, digits or -'),
  url: () => str().max(MAX_URL, `url must be at most ${MAX_URL} characters`),
  transport: () => str().oneOf([...MCP_TRANSPORTS], `transport must be one of ${MCP_TRANSPORTS.join(', ')}`),
  timeoutMs: () => num().integer('timeoutMs must be an integer').min(100, 'timeoutMs must be at least 100').max(MAX_TOOL_TIMEOUT_MS, `timeoutMs must be at most ${MAX_TOOL_TIMEOUT_MS}`),
};
const createSchema = yup.object({
  name: fields.name().required('name is required'),
  url: fields.url().required('url is required'),
  transport: fields.transport(),
  headers: yup.mixed(),
  secrets: yup.mixed(),
  timeoutMs: fields.timeoutMs(),
});
const updateSchema = yup.object({ name: fields.name(), url: fields.url(), transport: fields.transport(), headers: yup.mixed(), secrets: yup.mixed(), timeoutMs: fields.timeoutMs() });

/** A URL the client's calls would reach: the rule of every outbound call (scheme, credentials, every resolved address), checked before anything is stored. */
async function checkUrl(client: McpClient, raw: string): Promise<string> {
  const url = raw.trim();
  const problem = await client.problemWith(url);
  if (problem) throw ValidationError.field('url', urlProblemOf(problem, 'url'));
  return url;
}

async function findOwnedServer(deps: McpServerDeps, applicationId: unknown, serverId: unknown, actor: Actor, action: AccessAction): Promise<McpServer> {
  const application = await findOwnedApplication(deps.applications, applicationId, actor, action);
  const server = isUuid(serverId) ? await deps.servers.findById(serverId) : null;
  if (!server || server.applicationId !== application.id) throw new NotFoundError('MCP server');
  return server;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every header value sealed, bound to the server and the header's name. */
const sealHeaders = (secretBox: SecretBox, serverId: string, headers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, secretBox.seal(value, mcpHeaderAad(serverId, name))]));

/**
 * The headers after a change: the server's own (opened), less those the change names with null, with those it
 * gives set (a name differing only in case replaces the old one), checked as on create against the secrets held.
 */
function changedHeaders(secretBox: SecretBox, server: McpServer, raw: unknown, secretNames: string[]): Record<string, string> {
  const merged: Record<string, string> = Object.fromEntries(Object.entries(server.headersSealed).map(([name, sealed]) => [name, secretBox.open(sealed, mcpHeaderAad(server.id, name))]));
  if (raw !== undefined) {
    if (!isObject(raw)) throw ValidationError.field('headers', 'headers must be an object of names and values (null removes one)');
    const given = parseHeaders(Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null)), secretNames, 'headers');
    for (const name of Object.keys(raw)) {
      for (const held of Object.keys(merged)) if (held.toLowerCase() === name.toLowerCase()) delete merged[held];
    }
    Object.assign(merged, given);
  }
  return parseHeaders(merged, secretNames, 'headers');
}

const nameTaken = (name: string) => new ConflictError(`The application already has an MCP server named ${name}`);

/** `POST /api/applications/:appId/mcp-servers`: checked, stored with its secrets sealed, then its tools listed. */
export class CreateMcpServerUseCase {
  constructor(private readonly deps: McpServerDeps) {}

  async execute(applicationId: string, input: unknown, actor: Actor): Promise<McpServerView> {
    const application = await findOwnedApplication(this.deps.applications, applicationId, actor, 'write');
    const body = await validate(createSchema, input);
    const secrets = parseToolSecrets(body.secrets, false);
    const headers = parseHeaders(body.headers, Object.keys(secrets.set), 'headers');
    const url = await checkUrl(this.deps.client, body.url);
    const existing = await this.deps.servers.listByApplication(application.id);
    if (existing.length >= MAX_MCP_SERVERS_PER_APPLICATION) throw ValidationError.field('name', `An application connects at most ${MAX_MCP_SERVERS_PER_APPLICATION} MCP servers`);
    if (existing.some((s) => s.name === body.name)) throw nameTaken(body.name);
    const id = newId();
    const server = await this.deps.servers.create({
      id,
      ownerId: application.ownerId,
      applicationId: application.id,
      name: body.name,
      url,
      transport: (body.transport ?? 'auto') as McpTransportChoice,
      headersSealed: sealHeaders(this.deps.secretBox, id, headers),
      secretsSealed: Object.fromEntries(Object.entries(secrets.set).map(([n, v]) => [n, this.deps.secretBox.seal(v, mcpSecretAad(id, n))])),
      timeoutMs: body.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
      tools: [],
      connectedWith: null,
      toolsRefreshedAt: null,
      lastError: null,
    });
    // A server that does not answer yet is kept, with the reason in lastError; refresh lists its tools later.
    return toMcpServerView((await refreshMcpTools(this.deps, server)).server);
  }
}

export class ListMcpServersUseCase {
  constructor(private readonly deps: McpServerDeps) {}

  async execute(applicationId: string, actor: Actor): Promise<McpServerView[]> {
    const application = await findOwnedApplication(this.deps.applications, applicationId, actor, 'read');
    return (await this.deps.servers.listByApplication(application.id)).map(toMcpServerView);
  }
}

export class GetMcpServerUseCase {
  constructor(private readonly deps: McpServerDeps) {}

  async execute(applicationId: string, serverId: string, actor: Actor): Promise<McpServerView> {
    return toMcpServerView(await findOwnedServer(this.deps, applicationId, serverId, actor, 'read'));
  }
}

/** `PUT …/mcp-servers/:serverId`: fields given are checked as on create; a new address or credentials list the tools again. */
export class UpdateMcpServerUseCase {
  constructor(private readonly deps: McpServerDeps) {}

  async execute(applicationId: string, serverId: string, input: unknown, actor: Actor): Promise<McpServerView> {
    const server = await findOwnedServer(this.deps, applicationId, serverId, actor, 'write');
    const body = await validate(updateSchema, input);
    const secrets = parseToolSecrets(body.secrets, true);
    let secretsSealed: Record<string, string> | undefined;
    if (body.secrets !== undefined) {
      secretsSealed = { ...server.secretsSealed };
      for (const name of secrets.remove) delete secretsSealed[name];
      for (const [name, value] of Object.entries(secrets.set)) secretsSealed[name] = this.deps.secretBox.seal(value, mcpSecretAad(server.id, name));
    }
    const headers =
      body.headers !== undefined || secretsSealed
        ? sealHeaders(this.deps.secretBox, server.id, changedHeaders(this.deps.secretBox, server, body.headers, Object.keys(secretsSealed ?? server.secretsSealed)))
        : undefined;
    const url = body.url !== undefined ? await checkUrl(this.deps.client, body.url) : undefined;
    if (body.name !== undefined && body.name !== server.name) {
      if ((await this.deps.servers.listByApplication(server.applicationId)).some((s) => s.name === body.name)) throw nameTaken(body.name);
    }
    const updated = await this.deps.servers.update(server.id, {
      name: body.name,
      url,
      transport: body.transport as McpTransportChoice | undefined,
      headersSealed: headers,
      secretsSealed,
      timeoutMs: body.timeoutMs,
    });
    if (!updated) throw new NotFoundError('MCP server');
    const reach = url !== undefined || headers !== undefined || body.transport !== undefined;
    return toMcpServerView(reach ? (await refreshMcpTools(this.deps, updated)).server : updated);
  }
}

export class DeleteMcpServerUseCase {
  constructor(private readonly deps: McpServerDeps) {}

  async execute(applicationId: string, serverId: string, actor: Actor): Promise<void> {
    const server = await findOwnedServer(this.deps, applicationId, serverId, actor, 'write');
    await this.deps.servers.delete(server.id);
  }
}

/** `POST …/mcp-servers/:serverId/refresh`: lists the server's tools again; a server that does not answer is a 502 with the reason (the cached list stays). */
export class RefreshMcpServerUseCase {
  constructor(private readonly deps: McpServerDeps) {}

  async execute(applicationId: string, serverId: string, actor: Actor): Promise<McpServerView> {
    const server = await findOwnedServer(this.deps, applicationId, serverId, actor, 'write');
    const { server: refreshed, failed } = await refreshMcpTools(this.deps, server);
    if (failed) throw new UpstreamError(`The MCP server could not be listed: ${refreshed.lastError}`);
    return toMcpServerView(refreshed);
  }
}
