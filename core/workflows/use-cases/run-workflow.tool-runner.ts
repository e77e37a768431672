import type { Tool } from '../../tools/domain/tool';
import { ToolFailure, type ToolCallContext, type ToolRunner } from '../../tools/ports/tool-runner.port';
import { missingInput } from '../domain/required-input';
import { toRunView } from '../domain/workflow';
import type { WorkflowRepository } from '../ports/workflow-repository.port';
import type { StartRuns } from './workflow-runs.use-cases';

const FINISHED = ['completed', 'failed', 'cancelled'];

/**
 * The built-in `run_workflow` (docs/tools.md): the model's arguments are the run's input; the call waits
 * for the run within the tool's timeout and answers its outcome as JSON. Only a workflow of the same
 * application and owner runs; a run still going when the call is cut keeps going, as an API run would.
 */
export class RunWorkflowToolRunner implements ToolRunner {
  constructor(private readonly deps: { workflows: WorkflowRepository; runs: StartRuns; sleep?: (ms: number) => Promise<void> }) {}

  async run(tool: Tool, args: Record<string, unknown>, context: ToolCallContext): Promise<string> {
    const source = tool.source;
    if (source.type !== 'builtin' || source.builtin !== 'run_workflow') throw new ToolFailure('not a workflow tool');
    const workflow = await this.deps.workflows.findById(source.workflowId);
    if (!workflow || workflow.applicationId !== context.applicationId || workflow.ownerId !== context.ownerId) throw new ToolFailure('the workflow of this tool no longer exists');
    const missing = missingInput(workflow.definition, args);
    if (missing) throw new ToolFailure(`the workflow needs ${missing.path}: ${missing.message}`);
    let run = await this.deps.runs.start(workflow, 'api', args);
    const sleep = this.deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    while (!FINISHED.includes(run.status) && !context.signal.aborted) {
      await sleep(50);
      const found = await this.deps.workflows.findRun(run.id);
      if (!found) break;
      run = toRunView(found);
    }
    const outcome = JSON.stringify({ runId: run.id, status: run.status, output: run.output ?? null, error: run.error ?? null });
    if (run.status === 'failed' || run.status === 'cancelled') throw new ToolFailure(`the workflow run ${run.status}: ${outcome}`);
    return outcome;
  }
}
