import { RE2JS } from 're2js';
import type { RegexEngine } from '../../core/evaluations/ports/evaluation-engines.port';

/**
 * Regular expressions on RE2JS, a port of RE2: matching takes time linear in the text whatever the pattern, so a
 * catastrophic pattern such as `(a+)+$` cannot stall the process. Backreferences and lookarounds, which need
 * backtracking, are refused when the pattern is compiled. Compiled patterns are kept (a run reuses one per item).
 */
export class Re2RegexEngine implements RegexEngine {
  private readonly compiled = new Map<string, RE2JS>();

  compile(pattern: string, caseSensitive: boolean): void {
    this.get(pattern, caseSensitive);
  }

  matches(pattern: string, caseSensitive: boolean, text: string): boolean {
    return this.get(pattern, caseSensitive).test(text);
  }

  private get(pattern: string, caseSensitive: boolean): RE2JS {
    const key = `${caseSensitive ? 's' : 'i'}${pattern}`;
    let re = this.compiled.get(key);
    if (!re) {
      re = RE2JS.compile(pattern, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
      if (this.compiled.size >= 500) this.compiled.clear();
      this.compiled.set(key, re);
    }
    return re;
  }
}
