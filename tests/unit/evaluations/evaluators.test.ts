import { Re2RegexEngine } from '../../../adapters/evaluations/re2.regex-engine';
import { CsvJsonlDatasetParser } from '../../../adapters/evaluations/csv-jsonl.dataset-parser';
import { rowToItemCandidate } from '../../../core/evaluations/domain/dataset';
import { jsonOf, judgeScore, scoreDeterministic, toEvaluatorSpecs, type EvaluatorSpec, type Observed } from '../../../core/evaluations/domain/evaluator';
import { summarize, verdictOf, type EvaluationResult, type EvaluationRun } from '../../../core/evaluations/domain/run';
import { meanInterval, meanIntervalOf, wilsonInterval } from '../../../core/evaluations/domain/statistics';
import { PayloadTooLargeError, ValidationError } from '../../../core/shared/errors';

const regex = new Re2RegexEngine();
const engines = { regexMatches: (p: string, c: boolean, t: string) => regex.matches(p, c, t), schemaErrors: () => [] as string[] };
const seen: Observed = { answer: '  The Answer is {"n": 3} ', expected: 'the answer is {"n": 3}', latencyMs: 120, totalTokens: 40, cost: 0.0002 };
const specs = (list: unknown[]) => toEvaluatorSpecs(list as never, { compilePattern: (p, c) => regex.compile(p, c), compileSchema: () => undefined });

describe('evaluators', () => {
  it('scores exact, contains, regex, JSON and thresholds, each in [0, 1] with a reason', () => {
    const list = specs([
      { type: 'exact' },
      { type: 'exact', caseSensitive: true },
      { type: 'contains', mode: 'all', values: ['answer', 'missing'] },
      { type: 'regex', pattern: '\\{"n": \\d+\\}' },
      { type: 'json' },
      { type: 'latency', maxMs: 100 },
      { type: 'tokens', max: 40 },
      { type: 'cost', maxUsd: 0.001 },
    ]) as Array<Exclude<EvaluatorSpec, { type: 'similarity' | 'judge' }>>;
    expect(list.map((e) => e.name)).toEqual(['Exact match', 'Exact match 2', 'Contains', 'Pattern', 'Valid JSON', 'Latency', 'Tokens', 'Cost']);
    const scores = list.map((e) => scoreDeterministic(e, seen, engines));
    expect(scores.map((s) => [s.passed, s.score])).toEqual([
      [true, 1],
      [false, 0],
      [false, 0.5],
      [true, 1],
      [true, 1],
      [false, 0],
      [true, 1],
      [true, 1],
    ]);
    expect(scores[2]!.reason).toBe('Missing "missing"');
    expect(jsonOf('```json\n[1, 2]\n```')).toEqual({ ok: true, value: [1, 2] });
  });

  it('refuses, when the run starts, patterns RE2 cannot run in linear time, naming the evaluator', () => {
    expect(() => specs([{ type: 'json' }, { type: 'regex', pattern: '(\\w)\\1' }])).toThrow(ValidationError);
    const refused = (() => {
      try {
        specs([{ type: 'regex', pattern: '(?<=a)b' }]);
        return null;
      } catch (error) {
        return error as ValidationError;
      }
    })();
    expect(refused?.details[0]!.path).toBe('evaluators[0].pattern');
    // A catastrophic pattern for a backtracking engine is answered at once.
    expect(regex.matches('(a+)+$', true, `${'a'.repeat(100_000)}!`)).toBe(false);
  });

  it("reads the judge's last JSON verdict on the scale, normalized, and fails a reply without one", () => {
    const [judge] = specs([{ type: 'judge', provider: 'provider_a', model: 'gpt-4o', rubric: 'Be right', scaleMin: 1, scaleMax: 5 }]) as Array<Extract<EvaluatorSpec, { type: 'judge' }>>;
    expect(judge!.passScore).toBe(3);
    expect(judgeScore(judge!, 'Thinking {"score": 9} … {"score": 2, "reasoning": "Misses a step."}')).toMatchObject({ score: 0.25, passed: false, reason: '2 of 5: Misses a step.' });
    expect(judgeScore(judge!, 'I cannot grade this')).toMatchObject({ score: 0, passed: false });
  });
});

describe('statistics', () => {
  it('gives the Wilson interval of a pass rate and a clipped mean interval', () => {
    const w = wilsonInterval(14, 20)!;
    expect(w.low).toBeCloseTo(0.481, 3);
    expect(w.high).toBeCloseTo(0.8545, 3);
    expect(wilsonInterval(20, 20)!.high).toBe(1);
    expect(wilsonInterval(0, 0)).toBeNull();
    const m = meanInterval([1, 1, 0, 1])!;
    expect(m.mean).toBe(0.75);
    expect(m.interval!.high).toBe(1);
  });

  it('gives the same mean interval from the values or from their count, sum and sum of squares (the SQL aggregate)', () => {
    const values = Array.from({ length: 57 }, (_, i) => ((i * 37) % 101) / 100);
    const fromValues = meanInterval(values)!;
    const fromSums = meanIntervalOf(values.length, values.reduce((a, v) => a + v, 0), values.reduce((a, v) => a + v * v, 0))!;
    expect(fromSums.mean).toBeCloseTo(fromValues.mean, 12);
    expect(fromSums.interval!.low).toBeCloseTo(fromValues.interval!.low, 12);
    expect(fromSums.interval!.high).toBeCloseTo(fromValues.interval!.high, 12);
    // Equal values: no spread beyond rounding, and never a negative variance.
    expect(meanIntervalOf(3, 0.3 * 3, 0.09 * 3)!.interval).toEqual({ low: expect.closeTo(0.3, 6), high: expect.closeTo(0.3, 6) });
    expect(meanIntervalOf(0, 0, 0)).toBeNull();
  });

  it('decides the gate on every target once the run completed', () => {
    const run = { targets: [{ label: 'A' }, { label: 'B' }], evaluators: [], passThreshold: 0.5, status: 'completed' } as unknown as EvaluationRun;
    const result = (targetIndex: number, passed: boolean) => ({ targetIndex, state: 'done', passed, scores: [], usage: null, latencyMs: 1, cost: null }) as unknown as EvaluationResult;
    const results = [result(0, true), result(0, false), result(1, true), result(1, true)];
    expect(verdictOf(run, summarize(run, results))).toBe('pass');
    expect(verdictOf(run, summarize(run, [...results, result(0, false)]))).toBe('fail');
    expect(verdictOf({ ...run, status: 'running' }, summarize(run, results))).toBe('pending');
  });
});

describe('dataset files', () => {
  const parser = new CsvJsonlDatasetParser();
  it('reads CSV rows by their header, with tags, variables and var: columns', async () => {
    const rows = await parser.parse(Buffer.from('\ufeffquestion,answer,tags,var:name\n"Hi, there",Hello,"a, b",Ada\n'), 'csv', 10);
    expect(rowToItemCandidate(rows[0]!)).toEqual({ input: { message: 'Hi, there', variables: { name: 'Ada' } }, expected: 'Hello', tags: ['a', 'b'] });
  });
  it('stops at the row past the limit, and refuses prototype keys in JSON Lines', async () => {
    await expect(parser.parse(Buffer.from(`input\n${'q\n'.repeat(50)}`), 'csv', 10)).rejects.toBeInstanceOf(PayloadTooLargeError);
    await expect(parser.parse(Buffer.from('{"input": "a", "__proto__": {"x": 1}}\n'), 'jsonl', 10)).rejects.toBeInstanceOf(ValidationError);
  });
});
