import { CssTreeStylesheetSanitizer } from '../../../adapters/css/css-tree.stylesheet-sanitizer';
import { locateRefusal } from '../../../apps/console/src/routes/branding/css-refusal';

/** The branding screen finds the rule the server refused (its message, as the branding use case words it) in the text as written. */
describe('console: locating a refused CSS rule', () => {
  const sanitizer = new CssTreeStylesheetSanitizer();
  const refusal = (css: string) => {
    const result = sanitizer.sanitize(css);
    if (result.ok) throw new Error('expected a refusal');
    return `customCss: ${result.reason} in rule \`${result.rule}\``;
  };

  it('points at the line of a refused at-rule and of a refused declaration spread over lines', () => {
    const css = '.a { color: red; }\n\n@import url("https://evil.example/x.css");\n.b { color: blue; }';
    expect(locateRefusal(css, refusal(css))).toMatchObject({ line: 3, message: '`@import` is not allowed' });
    const spread = '.a { color: red; }\n.hero {\n    background:\n      url(javascript:alert(1));\n}\n';
    const found = locateRefusal(spread, refusal(spread))!;
    expect(found.line).toBe(2);
    expect(spread.slice(found.from, found.to)).toMatch(/^\.hero \{[\s\S]*\}$/);
  });

  it('finds a long rule the server shortened, and gives up on other messages', () => {
    const long = `.ok { margin: 0; }\n.x { ${Array.from({ length: 12 }, (_, i) => `--v${i}: ${i}px;`).join(' ')} behavior: url(https://a.example/x.htc); }`;
    expect(locateRefusal(long, refusal(long))?.line).toBe(2);
    expect(locateRefusal(long, 'customCss must be at most 5 KB (5120 bytes)')).toBeNull();
    expect(locateRefusal('.a{}', 'customCss: `@import` is not allowed in rule `@import "x"`')).toBeNull();
  });
});
