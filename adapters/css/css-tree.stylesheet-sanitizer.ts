import * as csstree from 'css-tree';
import type { SanitizedStylesheet, StylesheetSanitizer } from '../../core/branding/ports/stylesheet-sanitizer.port';

const SAFE_URL = /^(?:https:|data:image\/)/i;
const FORBIDDEN_PROPERTIES = new Set(['behavior', '-ms-behavior', '-moz-binding']);
/** Functions whose string arguments are fetched as URLs, like `url()`. */
const URL_FUNCTIONS = new Set(['url', 'src', 'image', 'image-set', '-webkit-image-set', 'cross-fade', '-webkit-cross-fade']);
const FORBIDDEN_TEXT: Array<[RegExp, string]> = [
  [/<\/style/i, '`</style` is not allowed'],
  [/javascript:/i, '`javascript:` is not allowed'],
  [/vbscript:/i, '`vbscript:` is not allowed'],
  [/expression\s*\(/i, '`expression(` is not allowed'],
];

class Refused extends Error {
  constructor(readonly reason: string, readonly node: csstree.CssNode | null) {
    super(reason);
  }
}

const decode = (name: string): string => csstree.ident.decode(name).toLowerCase();
const checkText = (text: string, node: csstree.CssNode | null) => {
  for (const [pattern, reason] of FORBIDDEN_TEXT) if (pattern.test(text)) throw new Refused(reason, node);
};
const checkUrl = (url: string, node: csstree.CssNode) => {
  if (!SAFE_URL.test(url.trim())) throw new Refused('`url()` may only load `https:` or `data:image/` addresses', node);
  checkText(url, node);
};

/**
 * The owner's stylesheet parsed by css-tree: names are compared after their escapes are decoded and
 * comments are gone from the tree, so neither hides a rule. What pages receive is re-generated from
 * the tree, never the text as sent.
 */
export class CssTreeStylesheetSanitizer implements StylesheetSanitizer {
  sanitize(css: string): SanitizedStylesheet {
    const parseErrors: string[] = [];
    let ast: csstree.CssNode;
    try {
      ast = csstree.parse(css, { positions: true, onParseError: (e) => parseErrors.push(`${e.message} (line ${(e as { line?: number }).line ?? '?'})`) });
    } catch (error) {
      return { ok: false, rule: firstLine(css), reason: `the stylesheet could not be parsed: ${(error as Error).message}` };
    }
    // Raw text is checked too: `</style` inside a comment still ends an inline <style> element.
    try {
      checkText(css, null);
    } catch (error) {
      if (error instanceof Refused) return { ok: false, rule: ruleAround(css, error.reason), reason: error.reason };
      throw error;
    }
    if (parseErrors.length) return { ok: false, rule: firstLine(css), reason: `the stylesheet could not be parsed: ${parseErrors[0]}` };
    try {
      csstree.walk(ast, function (node) {
        switch (node.type) {
          case 'Atrule':
            if (decode(node.name) === 'import') throw new Refused('`@import` is not allowed', node);
            break;
          case 'Declaration':
            if (FORBIDDEN_PROPERTIES.has(decode(node.property))) throw new Refused(`\`${decode(node.property)}\` is not allowed`, node);
            break;
          case 'Url':
            checkUrl(node.value, node);
            break;
          case 'Function': {
            const name = decode(node.name);
            if (name === 'expression') throw new Refused('`expression(` is not allowed', node);
            if (URL_FUNCTIONS.has(name)) {
              node.children.forEach((child) => {
                if (child.type === 'String') checkUrl(child.value, node);
                if (child.type === 'Raw') throw new Refused(`\`${name}()\` with an unquoted argument is not allowed`, node);
              });
            }
            break;
          }
          case 'Identifier':
            checkText(csstree.ident.decode(node.name), node);
            break;
          case 'String':
            checkText(node.value, node);
            break;
          case 'Raw':
            checkText(csstree.ident.decode(node.value), node);
            if (/url\s*\(/i.test(csstree.ident.decode(node.value))) throw new Refused('`url()` in an unparsed value is not allowed', node);
            break;
          default:
            break;
        }
      });
    } catch (error) {
      if (error instanceof Refused) return { ok: false, rule: this.ruleOf(ast, error.node, css), reason: error.reason };
      throw error;
    }
    return { ok: true, css: csstree.generate(ast) };
  }

  /** The rule (selector and block, or at-rule) that holds the node, as the owner wrote it, shortened. */
  private ruleOf(ast: csstree.CssNode, target: csstree.CssNode | null, css: string): string {
    let holder: csstree.CssNode | null = null;
    csstree.walk(ast, function (this: csstree.WalkContext, node: csstree.CssNode) {
      if (!holder && node === target) holder = this.rule ?? this.atrule ?? node;
    });
    const loc = (holder ?? target)?.loc;
    return loc ? shorten(css.slice(loc.start.offset, loc.end.offset)) : firstLine(css);
  }
}

function shorten(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 120 ? `${one.slice(0, 117)}...` : one;
}
const firstLine = (css: string) => shorten(css.split('\n')[0] ?? '');

/** For a refusal found in the raw text: the rule around its first occurrence. */
function ruleAround(css: string, reason: string): string {
  const needle = /`([^`]+)`/.exec(reason)?.[1]?.replace('(', '') ?? '';
  const at = css.toLowerCase().indexOf(needle.toLowerCase());
  if (at < 0) return firstLine(css);
  const start = Math.max(css.lastIndexOf('}', at) + 1, 0);
  const endBrace = css.indexOf('}', at);
  return shorten(css.slice(start, endBrace < 0 ? css.length : endBrace + 1));
}
