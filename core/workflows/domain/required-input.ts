import { successors, templatedTexts, type Step, type WorkflowDefinition } from './definition';
import { hasValue, referencesIn } from './references';

/**
 * The steps every run executes: from the first step along `next` links up to the first condition (after it,
 * which steps run depends on the data) or the end. A run stops before them only by failing.
 */
function stepsEveryRunReaches(definition: WorkflowDefinition): Step[] {
  const byId = new Map(definition.steps.map((s) => [s.id, s]));
  const reached: Step[] = [];
  let step: Step | undefined = definition.steps[0];
  while (step && step.kind !== 'condition' && !reached.includes(step)) {
    reached.push(step);
    const next: string | undefined = successors(step, definition.steps)[0];
    step = next === undefined ? undefined : byId.get(next);
  }
  return reached;
}

/**
 * The first `{{input.<path>}}` read by a step every run reaches that `input` has no value for (the run would
 * fail at that step), or null. Condition expressions are not counted: JSONata reads a missing field as nothing,
 * which is how a branch tests for optional input.
 */
export function missingInput(definition: WorkflowDefinition, input: unknown): { path: string; message: string } | null {
  for (const step of stepsEveryRunReaches(definition)) {
    for (const { text } of templatedTexts(step)) {
      for (const ref of referencesIn(text)) {
        if (ref.root !== 'input' || hasValue({ input, outputs: {} }, ref)) continue;
        const path = ['input', ...ref.path].join('.');
        return { path, message: `${path} is required: step "${step.id}" reads {{${ref.text}}}` };
      }
    }
  }
  return null;
}
