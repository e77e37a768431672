/**
 * The application templates shipped with the platform: each is an application with its model config,
 * prompt, theme, workflows and example knowledge, deployed together.
 */
export interface ApplicationTemplate {
  id: string;
  name: string;
  description: string;
  /** What to do first once deployed: `chat` in the application, or `run` its first workflow. */
  firstStep: 'chat' | 'run';
  application: { name: string; description: string; allowedOrigins?: string[] };
  modelConfig: { name: string; provider: 'provider_a' | 'provider_b' | 'provider_c' | 'provider_d'; modelId: string; settings: { temperature: number; maxTokens: number; topP: number; systemPrompt?: string } };
  prompt?: { name: string; content: string };
  /** A theme preset id. */
  theme: string;
  workflows: Array<{ name: string; description: string; definition: Record<string, unknown> }>;
  knowledge: Array<{ fileName: string; text: string }>;
  /** An example input for the first workflow. */
  exampleInput?: Record<string, unknown>;
}

export const TEMPLATES: readonly ApplicationTemplate[] = [
  {
    id: 'support-bot',
    name: 'Support bot with a knowledge base',
    description: 'Answers customer questions from your help articles; upload your own documents to replace the examples.',
    firstStep: 'chat',
    application: { name: 'Support bot', description: 'Customer support answers grounded in the help centre' },
    modelConfig: {
      name: 'Support answers',
      provider: 'provider_a',
      modelId: 'gpt-4o-mini',
      settings: { temperature: 0.3, maxTokens: 800, topP: 1, systemPrompt: 'You are a friendly support agent. Answer from the context you are given; when it does not cover the question, say so and offer to pass it to a person.' },
    },
    prompt: { name: 'Support tone', content: 'You are the support agent of {{company}}. Be brief and precise.' },
    theme: 'default',
    workflows: [],
    knowledge: [
      { fileName: 'refunds.md', text: '# Refunds\n\nOrders can be refunded within 30 days of delivery. Refunds go back to the original payment method within 5 business days.' },
      { fileName: 'shipping.md', text: '# Shipping\n\nStandard shipping takes 3 to 5 business days. Express shipping takes 1 business day and costs 9 euros.' },
    ],
  },
  {
    id: 'faq-widget',
    name: 'FAQ widget',
    description: 'A compact chat widget for your website that answers frequently asked questions.',
    firstStep: 'chat',
    application: { name: 'FAQ widget', description: 'Frequently asked questions on the website' },
    modelConfig: {
      name: 'FAQ answers',
      provider: 'provider_a',
      modelId: 'gpt-4o-mini',
      settings: { temperature: 0.2, maxTokens: 400, topP: 1, systemPrompt: 'Answer in at most three sentences, from the FAQ context only.' },
    },
    theme: 'minimal',
    workflows: [],
    knowledge: [{ fileName: 'faq.md', text: '# FAQ\n\nOpening hours: Monday to Friday, 9:00 to 18:00.\n\nContact: use the chat or write to the support address on the contact page.' }],
  },
  {
    id: 'lead-qualifier',
    name: 'Lead qualifier',
    description: 'Scores an incoming lead with a model and announces qualified leads as a workflow.event webhook.',
    firstStep: 'run',
    application: { name: 'Lead qualifier', description: 'Qualifies inbound leads' },
    modelConfig: { name: 'Lead scoring', provider: 'provider_a', modelId: 'gpt-4o-mini', settings: { temperature: 0, maxTokens: 200, topP: 1 } },
    theme: 'dark',
    workflows: [
      {
        name: 'Qualify lead',
        description: 'Asks the model whether the lead looks qualified, then emits a webhook for qualified ones.',
        definition: {
          steps: [
            { id: 'score', kind: 'llm', prompt: 'Is this lead qualified for a sales call? Answer QUALIFIED or NOT QUALIFIED, then one sentence why.\nCompany: {{input.company}}\nMessage: {{input.message}}' },
            { id: 'check', kind: 'condition', expression: '$contains($uppercase(steps.score.output.text), "QUALIFIED") and $not($contains($uppercase(steps.score.output.text), "NOT QUALIFIED"))', then: 'notify', else: 'skip' },
            { id: 'notify', kind: 'webhook', data: { lead: '{{input}}', assessment: '{{steps.score.output.text}}' }, next: null },
            { id: 'skip', kind: 'template', text: 'Not qualified: {{steps.score.output.text}}' },
          ],
          limits: { maxSteps: 10, timeoutMs: 120000, maxTokens: 4000 },
        },
      },
    ],
    knowledge: [],
    exampleInput: { company: 'Example GmbH', message: 'We need 200 seats next month.' },
  },
  {
    id: 'document-summariser',
    name: 'Document summariser',
    description: 'Summarises a text in a few bullet points and returns the summary with its length.',
    firstStep: 'run',
    application: { name: 'Document summariser', description: 'Summaries of long documents' },
    modelConfig: { name: 'Summaries', provider: 'provider_a', modelId: 'gpt-4o-mini', settings: { temperature: 0.2, maxTokens: 600, topP: 1 } },
    theme: 'vibrant',
    workflows: [
      {
        name: 'Summarise document',
        description: 'A model writes the summary; a template wraps it.',
        definition: {
          steps: [
            { id: 'summarise', kind: 'llm', prompt: 'Summarise the following document in at most five bullet points:\n\n{{input.text}}' },
            { id: 'result', kind: 'template', text: 'Summary of "{{input.title}}":\n{{steps.summarise.output.text}}' },
          ],
          limits: { maxSteps: 5, timeoutMs: 120000, maxTokens: 8000 },
        },
      },
    ],
    knowledge: [],
    exampleInput: { title: 'Quarterly report', text: 'Revenue grew by 12 percent. Costs stayed flat. Two new offices opened.' },
  },
];

export const templateById = (id: string): ApplicationTemplate | undefined => TEMPLATES.find((t) => t.id === id);

export const toTemplateView = (t: ApplicationTemplate) => ({
  id: t.id,
  name: t.name,
  description: t.description,
  firstStep: t.firstStep,
  theme: t.theme,
  provider: t.modelConfig.provider,
  model: t.modelConfig.modelId,
  workflows: t.workflows.map((w) => ({ name: w.name, description: w.description })),
  knowledgeDocuments: t.knowledge.map((k) => k.fileName),
  ...(t.exampleInput ? { exampleInput: t.exampleInput } : {}),
});
