/** Where the server's refusal of a stylesheet points: the rule it names, found again in the text as written. */
export interface CssRefusal {
  /** 1-based line of the rule's start. */
  line: number;
  from: number;
  to: number;
  message: string;
}

/** The server names the refused rule as `customCss: <reason> in rule \`<rule>\`` (the console shows the field as "Custom CSS", lib/errors.ts) (whitespace collapsed, long rules cut with "..."). */
const REFUSAL = /^(?:customCss|Custom CSS): ([\s\S]*) in rule `([\s\S]*)`$/;

/**
 * Finds the rule a `customCss` refusal names in the stylesheet the user wrote: compares with whitespace
 * collapsed as the server does, and maps the match back to the original offsets. Null when the message is
 * no refusal of a rule (size limit) or the rule is not found (the text changed since).
 */
export function locateRefusal(css: string, message: string): CssRefusal | null {
  const match = REFUSAL.exec(message);
  if (!match) return null;
  let rule = match[2]!.trim();
  if (rule.length === 120 && rule.endsWith('...')) rule = rule.slice(0, -3);
  if (!rule) return null;
  let normal = '';
  const offsets: number[] = [];
  for (let i = 0; i < css.length; i++) {
    const ch = css[i]!;
    if (/\s/.test(ch)) {
      if (normal.endsWith(' ')) continue;
      normal += ' ';
    } else normal += ch;
    offsets.push(i);
  }
  const at = normal.indexOf(rule);
  if (at < 0) return null;
  const from = offsets[at]!;
  const to = (offsets[at + rule.length - 1] ?? from) + 1;
  const line = css.slice(0, from).split('\n').length;
  return { line, from, to, message: match[1]! };
}
