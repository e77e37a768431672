import { JsonataConditionEvaluator } from '../../../adapters/workflows/jsonata.condition-evaluator';
import { parseDefinition } from '../../../core/workflows/domain/definition';
import { ReferenceError, renderText, renderValue } from '../../../core/workflows/domain/references';

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
