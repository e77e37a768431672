import type { Tool } from '../domain/tool';
import { ToolFailure, type ToolCallContext, type ToolRunner } from '../ports/tool-runner.port';

/** The application's knowledge search, as the built-in tool sees it. */
export type KnowledgeLookup = (applicationId: string, ownerId: string, query: string, limit: number) => Promise<Array<{ title: string; content: string; score: number }>>;

/** `search_knowledge`: retrieval the model decides to do, over the application's own knowledge base only. */
export class SearchKnowledgeToolRunner implements ToolRunner {
  constructor(private readonly lookup: KnowledgeLookup) {}

  async run(_tool: Tool, args: Record<string, unknown>, context: ToolCallContext): Promise<string> {
    const query = typeof args.query === 'string' ? args.query.trim() : '';
    if (!query) throw new ToolFailure('search_knowledge needs a "query" text');
    const limit = typeof args.limit === 'number' && Number.isInteger(args.limit) ? Math.min(Math.max(args.limit, 1), 10) : 5;
    const results = await this.lookup(context.applicationId, context.ownerId, query.slice(0, 2000), limit);
    if (!results.length) return 'No passages of the knowledge base match.';
    return results.map((r, i) => `[${i + 1}] ${r.title} (score ${r.score.toFixed(2)})\n${r.content}`).join('\n\n');
  }
}
