import { JsonataConditionEvaluator } from '../../../adapters/workflows/jsonata.condition-evaluator';
import { parseDefinition } from '../../../core/workflows/domain/definition';
import { ReferenceError, renderText, renderValue } from '../../../core/workflows/domain/references';
import { missingInput } from '../../../core/workflows/domain/required-input';

describe('condition expressions (JSONata, checked before use)', () => {
  const conditions = new JsonataConditionEvaluator();
  const data = { input: { amount: 120, tags: ['vip'], nested: { a: { b: 2 } } }, steps: { call: { output: { status: 200, body: { ok: true } } } } };

  it('evaluates expressions over input and step outputs', async () => {
    expect(await conditions.evaluate('input.amount > 100 and steps.call.output.status = 200', data)).toBe(true);
    expect(await conditions.evaluate('"vip" in input.tags', data)).toBe(true);
    expect(await conditions.evaluate('$count(input.tags) = 2', data)).toBe(false);
    expect(await conditions.evaluate('input.nested.a.b * 2', data)).toBe(4);
    expect(await conditions.evaluate('input.missing', data)).toBeNull();
  });

  it.each([
    ['input.constructor', /may not read "constructor"/],
    ['input.__proto__', /may not read "__proto__"/],
    ['input["constructor"]', /may not use "constructor"/],
    ['$lookup(input, "prototype")', /may not use "prototype"/],
    ['$eval("1 + 1")', /may not call \$eval/],
    ['$x := 1', /may not use "bind" expressions/],
    ['function($a) { $a }(1)', /function definitions|may not call/],
    ['($f := function($n) { $f($n) }; $f(1))', /may not use/],
    ['$process', /may not use variables/],
    ['$sift(input, function($v) { true })', /may not call \$sift/],
    ['input ~> $string', /may not use "apply" expressions/],
    ['$match(input.s, /a+/)', /regular expressions/],
    ['input.(', /not valid JSONata/],
  ])('refuses %s', async (expression, message) => {
    expect(conditions.problemWith(expression)).toMatch(message);
    await expect(conditions.evaluate(expression, data)).rejects.toThrow(message);
  });

  it('cannot reach JavaScript objects through the data: it sees a JSON copy', async () => {
    const hostile = { input: { fn: () => 'called' } as unknown, steps: {} };
    // The function is gone from the copy: there is nothing to call or to type.
    expect(await conditions.evaluate('$type(input.fn)', hostile)).toBeNull();
    expect(await conditions.evaluate('$exists(input.fn)', hostile)).toBe(false);
  });
});

describe('references', () => {
  const scope = { input: { name: 'Ada', n: 21, list: [{ x: 1 }] }, outputs: { greet: { text: 'Hello' } } as Record<string, unknown> };

  it('renders text and keeps the type of a whole-field reference', () => {
    expect(renderText('{{steps.greet.output.text}}, {{ input.name }}! {{input.list}}', scope)).toBe('Hello, Ada! [{"x":1}]');
    expect(renderValue({ n: '{{input.n}}', first: '{{input.list.0.x}}', text: 'n={{input.n}}' }, scope)).toEqual({ n: 21, first: 1, text: 'n=21' });
  });

  it('fails on references without a value, never reading inherited properties', () => {
    expect(() => renderText('{{input.constructor}}', scope)).toThrow(ReferenceError);
    expect(() => renderText('{{steps.other.output.text}}', scope)).toThrow(/has no value in this run/);
    expect(() => renderText('{{process.env}}', scope)).toThrow(/is not a reference/);
  });

  it('checks references when a graph is saved', () => {
    expect(() => parseDefinition({ steps: [{ id: 'a', kind: 'template', text: '{{input.x}}' }, { id: 'b', kind: 'template', text: '{{steps.a.output.text}}' }] })).not.toThrow();
    expect(() => parseDefinition({ steps: [{ id: 'a', kind: 'template', text: '{{steps.a.output.text}}' }] })).toThrow(/never runs before it/);
    // A bounded loop may refer back to a step that ran on an earlier pass.
    expect(() =>
      parseDefinition({
        steps: [
          { id: 'work', kind: 'template', text: 'x' },
          { id: 'loop', kind: 'condition', expression: 'true', then: 'work', else: null, maxIterations: 3 },
        ],
      }),
    ).not.toThrow();
  });
});

describe('the input every run reads (checked at trigger)', () => {
  const graph = (steps: unknown[]) => parseDefinition({ steps, allowedHosts: ['api.example.com'] });

  it('names the first input field a step every run reaches reads and the input lacks', () => {
    const wf = graph([
      { id: 'greet', kind: 'template', text: 'Hello {{ input.name }}' },
      { id: 'call', kind: 'http', method: 'POST', url: 'https://api.example.com/x', body: { email: '{{input.customer.email}}', first: '{{input.items.0}}' } },
    ]);
    expect(missingInput(wf, {})).toEqual({ path: 'input.name', message: 'input.name is required: step "greet" reads {{input.name}}' });
    expect(missingInput(wf, { name: 'Ada' })?.path).toBe('input.customer.email');
    expect(missingInput(wf, { name: 'Ada', customer: 'text' })?.path).toBe('input.customer.email');
    expect(missingInput(wf, { name: 'Ada', customer: { email: 'a@b.c' }, items: [] })?.path).toBe('input.items.0');
    // A value, null and false included, is a value: the run renders it.
    expect(missingInput(wf, { name: null, customer: { email: false }, items: [0] })).toBeNull();
    expect(missingInput(wf, null)?.path).toBe('input.name');
  });

  it.each(['llm', 'knowledge', 'plugin', 'webhook'])('reads the references of a %s step', (kind) => {
    const step = {
      llm: { id: 's', kind: 'llm', prompt: 'Sum up {{input.text}}' },
      knowledge: { id: 's', kind: 'knowledge', query: '{{input.text}}' },
      plugin: { id: 's', kind: 'plugin', pluginId: '0f8c2a4e-5b1d-4c3e-9a7f-2d6b8e1c4a90', method: 'POST', path: '/x', body: { t: '{{input.text}}' } },
      webhook: { id: 's', kind: 'webhook', data: { t: '{{input.text}}' } },
    }[kind];
    expect(missingInput(graph([step]), {})?.path).toBe('input.text');
    expect(missingInput(graph([step]), { text: 'x' })).toBeNull();
  });

  it('requires nothing a run may not reach: steps after a condition, steps no link leads to', () => {
    const branched = graph([
      { id: 'check', kind: 'condition', expression: 'input.amount > 100', then: 'big', else: 'small' },
      { id: 'big', kind: 'template', text: 'big {{input.amount}} {{input.note}}', next: null },
      { id: 'small', kind: 'template', text: 'small {{input.amount}}' },
    ]);
    expect(missingInput(branched, {})).toBeNull();
    const skipped = graph([
      { id: 'a', kind: 'template', text: 'a', next: 'c' },
      { id: 'b', kind: 'template', text: '{{input.skipped}}' },
      { id: 'c', kind: 'template', text: '{{input.needed}} {{steps.a.output.text}}' },
    ]);
    expect(missingInput(skipped, {})?.path).toBe('input.needed');
    const ended = graph([
      { id: 'a', kind: 'wait', ms: 1, next: null },
      { id: 'b', kind: 'template', text: '{{input.never}}' },
    ]);
    expect(missingInput(ended, {})).toBeNull();
    // Before the condition, the steps are still required.
    const gated = graph([
      { id: 'first', kind: 'template', text: '{{input.first}}' },
      { id: 'gate', kind: 'condition', expression: 'true', then: null, else: null },
    ]);
    expect(missingInput(gated, {})?.path).toBe('input.first');
  });

  it('reads the whole input as present', () => {
    expect(missingInput(graph([{ id: 'a', kind: 'webhook', data: { all: '{{input}}' } }]), {})).toBeNull();
  });
});
