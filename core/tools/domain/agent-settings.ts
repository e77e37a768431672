/** How an application's model uses its tools in a turn (docs/tools.md, "A turn with tools"). */
export interface AgentSettings {
  /** Names of the application's tools the model is offered; none means a turn without tools. */
  enabledTools: string[];
  /** `auto`, `none`, `required`, or one tool by name (which the model must call first). */
  toolChoice: ToolChoice;
  /** Model rounds that may call tools before the turn ends with what it has. */
  maxToolRounds: number;
  /** The whole turn's time for tool rounds (ms); past it the turn ends with what it has. */
  timeBudgetMs: number;
  /** Whether the model may ask for several calls at once (run side by side). */
  parallelCalls: boolean;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

export const DEFAULT_MAX_TOOL_ROUNDS = 5;
export const MAX_TOOL_ROUNDS = 20;
export const DEFAULT_TIME_BUDGET_MS = 60_000;
export const MAX_TIME_BUDGET_MS = 300_000;
export const MIN_TIME_BUDGET_MS = 1_000;

export const defaultAgentSettings = (): AgentSettings => ({
  enabledTools: [],
  toolChoice: 'auto',
  maxToolRounds: DEFAULT_MAX_TOOL_ROUNDS,
  timeBudgetMs: DEFAULT_TIME_BUDGET_MS,
  parallelCalls: true,
});
