import { ValidationError } from '../../../core/shared/errors';
import { extractVariables, MAX_RENDERED_LENGTH, renderTemplate } from '../../../core/prompts/domain/placeholders';

function validationErrorOf(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('prompt placeholders', () => {
  it('finds each {{name}} once, in order of first appearance, with or without inner spaces', () => {
    expect(extractVariables('Hi {{ name }}, welcome to {{company}}. Bye {{name}}. {{user.first_name}} {{kebab-case}}')).toEqual([
      'name',
      'company',
      'user.first_name',
      'kebab-case',
    ]);
  });

  it('treats anything else between braces as plain text', () => {
    expect(extractVariables('{{ 1 + 1 }} {{}} {name} {{{x y}}} {{constructor()}}')).toEqual([]);
  });

  it('substitutes every placeholder', () => {
    expect(renderTemplate('Hello {{name}}, from {{ team }}. {{name}}!', { name: 'Ada', team: 'Support' })).toBe('Hello Ada, from Support. Ada!');
  });

  it('writes numbers and booleans as text and ignores values nothing uses', () => {
    expect(renderTemplate('{{n}} items, gift: {{gift}}', { n: 3, gift: false, unused: 'x' })).toBe('3 items, gift: false');
  });

  it('does not look into substituted values: a value containing {{other}} stays as it is', () => {
    expect(renderTemplate('A={{a}} B={{b}}', { a: '{{b}}', b: 'secret' })).toBe('A={{b}} B=secret');
    expect(renderTemplate('{{a}}', { a: '{{a}}' })).toBe('{{a}}');
  });

  it('takes replacement patterns in values literally', () => {
    expect(renderTemplate('x {{a}} y', { a: "$& $1 $$ $` $'" })).toBe("x $& $1 $$ $` $' y");
  });

  it('names every placeholder without a value', () => {
    const error = validationErrorOf(() => renderTemplate('{{greeting}} {{name}} from {{team}}', { name: 'Ada' }));
    expect(error.details.map((d) => d.path)).toEqual(['variables.greeting', 'variables.team']);
    expect(error.message).toContain('greeting');
    expect(error.message).toContain('team');
  });

  it('does not take values from the object prototype', () => {
    const values = Object.create(null) as Record<string, string>;
    expect(() => renderTemplate('{{constructor}} {{toString}}', values)).toThrow(ValidationError);
    expect(() => renderTemplate('{{constructor}}', {})).toThrow(ValidationError);
  });

  it('refuses a rendering that would grow past the limit', () => {
    const template = '{{a}}'.repeat(1000);
    const error = validationErrorOf(() => renderTemplate(template, { a: 'x'.repeat(1000) }));
    expect(error.message).toContain(String(MAX_RENDERED_LENGTH));
  });
});
