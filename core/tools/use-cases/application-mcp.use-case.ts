import type { Application } from '../../applications/domain/application';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { SearchKnowledgeUseCase } from '../../knowledge/use-cases/search-knowledge.use-case';
import type { PublicCaller } from '../../public-api/domain/public-caller';
import { findScopedApplication } from '../../public-api/use-cases/scoped-application';
import type { SendPublicMessageUseCase } from '../../public-api/use-cases/send-public-message.use-case';
import { isAppError, ValidationError } from '../../shared/errors';
import type { RunWorkflowByApiUseCase } from '../../workflows/use-cases/workflow-runs.use-cases';
import type { Tool } from '../domain/tool';
import type { ToolRepository } from '../ports/tool-repository.port';

/** A tool as an MCP client lists it. */
export interface McpToolDescriptor {
  name: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
}

export interface McpCallResult {
  text: string;
  isError: boolean;
}

const CHAT: McpToolDescriptor = {
  name: 'chat',
  description: "Sends a message to this application's assistant and returns its answer. Pass the conversationId of an earlier answer to continue that conversation.",
  inputSchema: {
    type: 'object',
    properties: { message: { type: 'string', description: 'The message' }, conversationId: { type: 'string', description: 'A conversation this key started' } },
    required: ['message'],
  },
};

const SEARCH: McpToolDescriptor = {
  name: 'search_knowledge',
  description: "Searches this application's knowledge base by meaning; best passages first.",
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string', description: 'What to look for' }, limit: { type: 'integer', minimum: 1, maximum: 20, description: 'How many passages (5)' } },
    required: ['query'],
  },
};

const WORKFLOW_WAIT_MS = 30_000;

/**
 * Each application as an MCP server (docs/tools.md): the application the API key covers offers `chat`
 * (the public chat path: the owner's plan, keys and quota), `search_knowledge`, and the workflows its
 * owner marked as tools (its `run_workflow` tools). Failures are results the client reads, never internals.
 */
export class ApplicationMcpUseCase {
  constructor(
    private readonly deps: {
      applications: ApplicationRepository;
      tools: ToolRepository;
      chat: SendPublicMessageUseCase;
      knowledge?: SearchKnowledgeUseCase;
      workflows?: RunWorkflowByApiUseCase;
    },
  ) {}

  /** The key's own application, or (for a key covering all its owner's applications) the one named. */
  async application(caller: PublicCaller, named: unknown): Promise<Application> {
    const id = caller.key.applicationId ?? named;
    if (id === undefined || id === '') throw ValidationError.field('applicationId', 'Name the application with the X-Application-Id header (this key covers several)');
    if (caller.key.applicationId !== null && named !== undefined && named !== '' && named !== caller.key.applicationId) {
      return findScopedApplication(this.deps.applications, caller, named);
    }
    return findScopedApplication(this.deps.applications, caller, id);
  }

  async list(application: Application): Promise<McpToolDescriptor[]> {
    return [CHAT, ...(this.deps.knowledge ? [SEARCH] : []), ...(await this.workflowTools(application)).map(toDescriptor)];
  }

  async call(application: Application, caller: PublicCaller, name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<McpCallResult> {
    try {
      if (name === 'chat') {
        const answer = await this.deps.chat.execute({ applicationId: application.id, message: args.message, conversationId: args.conversationId }, caller, signal);
        return { text: `${answer.message.content}\n\n(conversationId: ${answer.conversationId})`, isError: false };
      }
      if (name === 'search_knowledge' && this.deps.knowledge) {
        const hits = await this.deps.knowledge.execute({ applicationId: application.id, query: args.query, limit: args.limit }, { userId: application.ownerId, role: 'user' });
        return { text: hits.length ? hits.map((h, i) => `[${i + 1}] ${h.fileName} (score ${h.score})\n${h.text}`).join('\n\n') : 'No passages match.', isError: false };
      }
      const tool = (await this.workflowTools(application)).find((t) => t.name === name);
      if (tool && tool.source.type === 'builtin' && tool.source.builtin === 'run_workflow' && this.deps.workflows) {
        const { finished, run } = await this.deps.workflows.execute(tool.source.workflowId, { input: args, wait: true, timeoutMs: WORKFLOW_WAIT_MS }, caller, signal);
        const outcome = { runId: run.id, status: run.status, output: run.output ?? null, error: run.error ?? null };
        return { text: JSON.stringify(outcome), isError: finished && run.status !== 'completed' };
      }
      return { text: `There is no tool named ${name.slice(0, 64)}`, isError: true };
    } catch (error) {
      // The key's rate limit and the owner's quota refuse a call like any other request: said, not hidden.
      return { text: isAppError(error) ? error.message : 'The tool failed', isError: true };
    }
  }

  private async workflowTools(application: Application): Promise<Tool[]> {
    if (!this.deps.workflows) return [];
    return (await this.deps.tools.listByApplication(application.id)).filter((t) => t.source.type === 'builtin' && t.source.builtin === 'run_workflow');
  }
}

function toDescriptor(tool: Tool): McpToolDescriptor {
  return { name: tool.name, description: tool.description, inputSchema: { ...tool.parameters, type: 'object' } };
}
