/**
 * Span attribute names. The GenAI ones are the OpenTelemetry GenAI semantic conventions' (semconv 1.37+:
 * `gen_ai.provider.name`, not the older `gen_ai.system`); the others name what the conventions do not cover.
 */
export const ATTR = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  requestTemperature: 'gen_ai.request.temperature',
  responseModel: 'gen_ai.response.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  conversationId: 'gen_ai.conversation.id',
  /** Seconds from the request to the first token (the conventions' metric of that name, on the round's span). */
  timeToFirstToken: 'gen_ai.server.time_to_first_token',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  dataSourceId: 'gen_ai.data_source.id',
  errorType: 'error.type',
  /** The platform's own. */
  costUsd: 'gen_ai.usage.cost_usd',
  applicationId: 'app.application.id',
  messageId: 'app.message.id',
  channel: 'app.channel',
  toolResultSize: 'app.tool.result_size',
  retrievalQuery: 'app.retrieval.query',
  retrievalMode: 'app.retrieval.mode',
  retrievalHitCount: 'app.retrieval.hit_count',
  retrievalHitDocuments: 'app.retrieval.hits.document_id',
  retrievalHitFiles: 'app.retrieval.hits.file_name',
  retrievalHitSections: 'app.retrieval.hits.section',
  retrievalHitChunks: 'app.retrieval.hits.chunk_index',
  retrievalHitScores: 'app.retrieval.hits.score',
  policyName: 'app.policy.name',
  attempt: 'app.provider.attempt',
  annotationId: 'app.annotation.id',
  annotationScore: 'app.annotation.score',
} as const;

/**
 * Attributes that hold what people wrote or what a tool answered. They are stored with the trace (the owner
 * reads them in the application's logs) but leave the platform over OTLP only when the operator opts in
 * (`OTEL_GENAI_CAPTURE_CONTENT=true`), as the conventions advise.
 */
export const CONTENT_ATTRIBUTES: ReadonlySet<string> = new Set([
  ATTR.toolArguments,
  ATTR.toolResult,
  ATTR.inputMessages,
  ATTR.outputMessages,
  ATTR.systemInstructions,
  ATTR.retrievalQuery,
]);
