import { ValidationError } from '../../../core/shared/errors';
import { MAX_JSON_DEPTH, checkPlainData, parseJsonBody } from '../../../adapters/http/shared/untrusted-input';

const refusal = (text: string) => {
  try {
    parseJsonBody(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).message;
  }
  throw new Error(`accepted ${text.slice(0, 60)}`);
};

describe('parseJsonBody', () => {
  it('parses an ordinary object into plain data', () => {
    const body = parseJsonBody('{"name":"Café ☕ 😀","n":[1,{"a":null}]}');
    expect(body).toEqual({ name: 'Café ☕ 😀', n: [1, { a: null }] });
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
  });

  it.each(['true', '0', '""', 'null', '[]', '[{}]'])('refuses the top level %s', (text) => {
    expect(refusal(text)).toBe('Request body must be a JSON object');
  });

  it('refuses malformed JSON', () => {
    expect(refusal('{"a":')).toBe('Request body is not valid JSON');
  });

  it.each(['__proto__', 'constructor', 'valueOf', 'toString', 'hasOwnProperty', '__lookupGetter__'])('refuses a "%s" key, nested too', (key) => {
    refusal(`{"${key}":{}}`);
    refusal(`{"a":[{"b":{"${key}":1}}]}`);
  });

  it('never lets __proto__ reach the prototype', () => {
    refusal('{"__proto__":{"polluted":true}}');
    refusal('{"constructor":{"prototype":{"polluted":true}}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it(`accepts ${MAX_JSON_DEPTH - 1} levels and refuses deeper, without recursion`, () => {
    const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(() => parseJsonBody(`{"a":${nest(MAX_JSON_DEPTH - 1)}}`)).not.toThrow();
    expect(refusal(`{"a":${nest(MAX_JSON_DEPTH)}}`)).toMatch(/deeper than/);
    expect(refusal(`{"a":${nest(100_000)}}`)).toMatch(/deeper than/);
  });

  it('refuses NUL and lone surrogates in values and keys, naming where', () => {
    expect(refusal('{"email":"a\\u0000@b.c"}')).toBe('email must not contain NUL characters');
    expect(refusal('{"s":{"systemPrompt":"\\udc00x"}}')).toBe('s.systemPrompt must be well-formed Unicode (no lone surrogates)');
    refusal('{"k\\u0000":1}');
    refusal('{"list":["ok","\\ud800"]}');
    expect(() => parseJsonBody('{"pair":"\\ud83d\\ude00"}')).not.toThrow();
  });
});

describe('checkPlainData', () => {
  it('applies the same rules to form fields', () => {
    expect(() => checkPlainData({ applicationId: 'x', title: 'a\u0000' })).toThrow(ValidationError);
    expect(() => checkPlainData({ fine: 'text' })).not.toThrow();
  });
});
