import {
  FunctionCallingMode,
  GoogleGenerativeAI,
  GoogleGenerativeAIFetchError,
  type Content,
  type ErrorDetails,
  type FunctionCall,
  type FunctionDeclarationSchema,
  type Part,
  type ToolConfig,
  type GenerativeModel,
  type UsageMetadata,
} from '@google/generative-ai';
import type { ChatRequest, ChatResult, ChatTurn, LlmProvider, StreamPart, ToolCall } from '../../core/ai/ports/llm-provider.port';
import { alternatingTurns, estimatedUsage, systemOf, usageOf } from './chat-turns';
import { argumentsObject, geminiSchema, hasToolTurns, newCallId } from './tool-wire';
import { ProviderCall, type ProviderOptions } from './provider-call';

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';
const API_VERSION = 'v1beta';

/**
 * provider_c: the Gemini API through `@google/generative-ai`. The SDK's own `timeout` option is
 * left unset: its timer is never cleared and would keep the process alive; our deadline applies.
 */
export class GeminiLlmProvider implements LlmProvider {
  readonly id = 'provider_c' as const;

  constructor(private readonly options: ProviderOptions) {}

  async chat(request: ChatRequest): Promise<ChatResult> {
    const call = new ProviderCall(this.id, this.options.timeoutMs, request.apiKey, request.signal);
    return call.run(async (signal) => {
      const { response } = await this.model(request).generateContent({ contents: contentsOf(request) }, { signal });
      const content = response.text();
      const toolCalls = (response.functionCalls() ?? []).map(toToolCall);
      return {
        content,
        usage: response.usageMetadata ? toUsage(response.usageMetadata) : estimatedUsage(request, content),
        model: (response as { modelVersion?: string }).modelVersion || request.model,
        ...(toolCalls.length ? { toolCalls } : {}),
      };
    });
  }

  async *stream(request: ChatRequest): AsyncIterable<StreamPart> {
    const call = new ProviderCall(this.id, this.options.timeoutMs, request.apiKey, request.signal);
    try {
      const result = await this.model(request).generateContentStream({ contents: contentsOf(request) }, { signal: call.signal });
      // The SDK also aggregates the stream into `response`; it rejects when the stream is cut, and nobody awaits it.
      result.response.catch(() => undefined);
      let usage: UsageMetadata | undefined;
      for await (const chunk of result.stream) {
        call.touch();
        const text = chunk.text();
        if (text) yield { type: 'delta', text };
        // Gemini sends each function call whole, in one part.
        for (const fc of chunk.functionCalls() ?? []) yield { type: 'tool_call', call: toToolCall(fc) };
        if (chunk.usageMetadata) usage = chunk.usageMetadata;
      }
      call.throwIfStopped();
      if (usage) yield { type: 'usage', usage: toUsage(usage) };
    } catch (error) {
      throw call.failure(error);
    } finally {
      call.end();
    }
  }

  /** The SDK has no model listing; this is the REST call it would make (`GET /v1beta/models`). */
  async listModels(apiKey: string, signal?: AbortSignal): Promise<string[]> {
    const call = new ProviderCall(this.id, this.options.timeoutMs, apiKey, signal);
    return call.run(async (callSignal) => {
      const ids: string[] = [];
      let pageToken: string | undefined;
      for (let page = 0; page < 20; page++) {
        const url = new URL(`${this.baseUrl()}/${API_VERSION}/models`);
        url.searchParams.set('pageSize', '1000');
        if (pageToken) url.searchParams.set('pageToken', pageToken);
        const response = await fetch(url, { headers: { 'x-goog-api-key': apiKey }, signal: callSignal });
        const body = (await response.json().catch(() => ({}))) as GeminiModelList & { error?: { message?: string; details?: ErrorDetails[] } };
        if (!response.ok) {
          throw new GoogleGenerativeAIFetchError(body.error?.message ?? response.statusText, response.status, response.statusText, body.error?.details);
        }
        for (const model of body.models ?? []) {
          if (model.supportedGenerationMethods?.includes('generateContent')) ids.push(model.name.replace(/^models\//, ''));
        }
        pageToken = body.nextPageToken;
        if (!pageToken) break;
      }
      return ids;
    });
  }

  private baseUrl(): string {
    return (this.options.baseUrl ?? GEMINI_DEFAULT_BASE_URL).replace(/\/+$/, '');
  }

  private model(request: ChatRequest): GenerativeModel {
    const { settings } = request;
    const tools = request.tools?.length ? request.tools : undefined;
    return new GoogleGenerativeAI(request.apiKey).getGenerativeModel(
      {
        model: request.model,
        systemInstruction: systemOf(request),
        ...(tools
          ? {
              tools: [{ functionDeclarations: tools.map((t) => ({ name: t.name, description: t.description, parameters: geminiSchema(t.parameters) as unknown as FunctionDeclarationSchema })) }],
              toolConfig: toolConfig(request),
            }
          : {}),
        generationConfig: {
          temperature: settings.temperature,
          topP: settings.topP,
          maxOutputTokens: settings.maxTokens,
          ...(settings.frequencyPenalty !== undefined ? { frequencyPenalty: settings.frequencyPenalty } : {}),
          ...(settings.presencePenalty !== undefined ? { presencePenalty: settings.presencePenalty } : {}),
        },
      },
      { baseUrl: this.options.baseUrl ? this.baseUrl() : undefined, apiVersion: API_VERSION },
    );
  }
}

interface GeminiModelList {
  models?: { name: string; supportedGenerationMethods?: string[] }[];
  nextPageToken?: string;
}

function contentsOf(request: ChatRequest): Content[] {
  if (hasToolTurns(request.messages)) return withFunctionParts(request.messages);
  return alternatingTurns(request.messages).map((m) => ({ role: m.role === 'assistant' ? 'model' : 'user', parts: [{ text: m.content }] }));
}

/** Gemini has no choice of parallel calls; `none`, `required` and one named function map to its calling modes. */
function toolConfig(request: ChatRequest): ToolConfig {
  const choice = request.toolChoice ?? 'auto';
  if (choice === 'none') return { functionCallingConfig: { mode: FunctionCallingMode.NONE } };
  if (choice === 'auto') return { functionCallingConfig: { mode: FunctionCallingMode.AUTO } };
  if (choice === 'required') return { functionCallingConfig: { mode: FunctionCallingMode.ANY } };
  return { functionCallingConfig: { mode: FunctionCallingMode.ANY, allowedFunctionNames: [choice.name] } };
}

/** Gemini's calls carry no id: one is made, and the results are matched back by name and order. */
function toToolCall(fc: FunctionCall): ToolCall {
  return { id: newCallId(), name: fc.name, arguments: JSON.stringify(fc.args ?? {}) };
}

/**
 * Turns as parts: a model turn's calls as `functionCall` parts, results as `functionResponse` parts of a
 * user turn (`{ content }`, or `{ error }` for a failed call); turns of one role in a row join.
 */
function withFunctionParts(turns: ChatTurn[]): Content[] {
  const out: Content[] = [];
  for (const t of turns) {
    const role = t.role === 'assistant' ? 'model' : 'user';
    const parts: Part[] = [];
    if (t.role === 'tool') {
      parts.push({ functionResponse: { name: t.name ?? '', response: t.isError ? { error: t.content } : { content: t.content } } });
    } else {
      if (t.content !== '') parts.push({ text: t.content });
      for (const c of t.toolCalls ?? []) parts.push({ functionCall: { name: c.name, args: argumentsObject(c.arguments) } });
    }
    if (!parts.length || (out.length === 0 && role !== 'user')) continue;
    const last = out[out.length - 1];
    if (last && last.role === role) last.parts.push(...parts);
    else out.push({ role, parts });
  }
  return out;
}

function toUsage(usage: UsageMetadata) {
  return usageOf(usage.promptTokenCount ?? 0, usage.candidatesTokenCount ?? 0);
}
