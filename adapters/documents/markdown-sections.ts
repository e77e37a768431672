import MarkdownIt from 'markdown-it';
import type { DocumentSection } from '../../core/knowledge/domain/document-section';

const markdown = new MarkdownIt('commonmark');

/**
 * Markdown split where its headings start, on markdown-it's block tokens (so a `#` inside a code block or
 * a setext heading are read as CommonMark reads them). Each section keeps its source text as written,
 * heading line included, under the path of the headings above it.
 */
export function markdownToSections(source: string): DocumentSection[] {
  const tokens = markdown.parse(source, {});
  const lines = source.split('\n');
  const starts: Array<{ line: number; level: number; title: string }> = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type !== 'heading_open' || !token.map) continue;
    const inline = tokens[i + 1];
    const title = (inline?.children ?? []).filter((c) => c.type === 'text' || c.type === 'code_inline').map((c) => c.content).join('');
    starts.push({ line: token.map[0], level: Number(token.tag.slice(1)), title });
  }
  const sections: DocumentSection[] = [];
  const levels: string[] = [];
  const push = (from: number, to: number) => {
    const text = lines.slice(from, to).join('\n').trim();
    if (text !== '') sections.push({ text, headings: levels.filter((h) => h !== '') });
  };
  let from = 0;
  for (const start of starts) {
    push(from, start.line);
    levels.length = Math.min(levels.length, start.level - 1);
    while (levels.length < start.level - 1) levels.push('');
    levels.push(start.title.trim());
    from = start.line;
  }
  push(from, lines.length);
  return sections;
}
