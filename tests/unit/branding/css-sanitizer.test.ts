import { CssTreeStylesheetSanitizer } from '../../../adapters/css/css-tree.stylesheet-sanitizer';

const sanitizer = new CssTreeStylesheetSanitizer();

describe('the custom CSS sanitizer (css-tree)', () => {
  it.each([
    ['@import', '.a{color:red}\n@import url("https://evil.example/x.css");', /@import/, '@import url("https://evil.example/x.css");'],
    ['@import with an escaped name', '@\\69mport "https://evil.example/x.css";', /@import/, '@\\69mport "https://evil.example/x.css";'],
    ['url(javascript:)', '.a{background:url(javascript:alert(1))}', /url\(\)|javascript/, '.a{background:url(javascript:alert(1))}'],
    ['url(javascript:) with an escaped scheme', '.a{background:url("java\\73 cript:alert(1)")}', /url\(\)|javascript/, '.a{background:url("java\\73 cript:alert(1)")}'],
    ['u\\72l( written with an escape', '.a{background:u\\72l(javascript:alert(1))}', /./, '.a{background:u\\72l(javascript:alert(1))}'],
    ['url() over http', '.b { background-image: url(http://tracker.example/p.gif) }', /https/, '.b { background-image: url(http://tracker.example/p.gif) }'],
    ['image-set() over http', '.b{background:image-set("http://x.example/a.png" 1x)}', /https/, '.b{background:image-set("http://x.example/a.png" 1x)}'],
    ['expression(', '.c{width:expression(alert(1))}', /expression/, '.c{width:expression(alert(1))}'],
    ['expression( escaped', '.c{width:\\65xpression(alert(1))}', /expression/, '.c{width:\\65xpression(alert(1))}'],
    ['behavior', '.d{behavior:url(https://x.example/a.htc)}', /behavior/, '.d{behavior:url(https://x.example/a.htc)}'],
    ['behavior escaped', '.d{beh\\61vior:url(https://x.example/a.htc)}', /behavior/, '.d{beh\\61vior:url(https://x.example/a.htc)}'],
    ['-moz-binding', '.d{-moz-binding:url(https://x.example/a.xml#x)}', /binding/, '.d{-moz-binding:url(https://x.example/a.xml#x)}'],
    ['</style><script>', '.e{color:red}</style><script>alert(1)</script>', /<\/style/, undefined],
    ['</style> inside a string', '.e::after{content:"</style><script>alert(1)</script>"}', /<\/style/, undefined],
    ['</style> escaped inside a string', '.e::after{content:"\\3c/style>\\3c script>alert(1)"}', /<\/style/, '.e::after{content:"\\3c/style>\\3c script>alert(1)"}'],
    ['a comment hiding </style>', '.e{color:red} /* </style><script>alert(1)</script> */', /<\/style/, undefined],
    ['@import after a comment', '/* brand colours */@import "https://x.example/a.css";', /@import/, '@import "https://x.example/a.css";'],
    ['javascript: in a string', '.f{content:"javascript:alert(1)"}', /javascript/, '.f{content:"javascript:alert(1)"}'],
  ])('refuses %s, naming the rule', (_name, css, reason, rule) => {
    const result = sanitizer.sanitize(css);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toMatch(reason);
    expect(result.rule.length).toBeGreaterThan(0);
    if (rule) expect(result.rule).toBe(rule);
  });

  it('keeps ordinary stylesheets, re-written without comments', () => {
    const css = `/* brand */\n.bubble { color: #123456; background: url("https://cdn.example/bg.png") no-repeat }\n@media (max-width: 480px) { .panel { border-radius: 0 } }\n.logo{background:url(data:image/png;base64,iVBORw0KGgo=)}\n@font-face{font-family:Brand;src:url(https://cdn.example/brand.woff2) format("woff2")}`;
    const result = sanitizer.sanitize(css);
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    expect(result.css).not.toContain('/*');
    expect(result.css).toContain('.bubble{color:#123456');
    expect(result.css).toContain('@media (max-width:480px)');
  });

  it('refuses a stylesheet it cannot parse', () => {
    const result = sanitizer.sanitize('.a{color:red;}}}');
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/could not be parsed/) });
  });

  it('drops rules hidden in comments, and a comment never joins tokens into an @import', () => {
    const hidden = sanitizer.sanitize('.a{color:red /* } @import "https://x.example/a.css"; */}');
    expect(hidden).toEqual({ ok: true, css: '.a{color:red}' });
    const split = sanitizer.sanitize('@im/**/port "https://x.example/a.css";');
    expect(split.ok && split.css).not.toContain('@import');
  });
});
