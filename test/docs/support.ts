/**
 * Reading the documentation as GitHub renders it: the Markdown files, their headings and the anchors
 * GitHub derives from them, their links, and their fenced code blocks with the comment before each.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";

export const root = resolve(import.meta.dirname, "../..");

/** Every documentation file, relative to the repository's root. */
export function docFiles(): string[] {
  return ["README.md", "rest/README.md", ...readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
}

export const readDoc = (file: string) => readFileSync(join(root, file), "utf8");

/** The lines outside fenced code blocks, with their 1-based numbers. */
export function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | undefined;
  text.split("\n").forEach((l, i) => {
    const open = /^\s*(```+|~~~+)/.exec(l);
    if (open) {
      if (!fence) fence = open[1];
      else if (l.trim().startsWith(fence)) fence = undefined;
      return;
    }
    if (!fence) out.push({ line: i + 1, text: l });
  });
  return out;
}

export interface Heading {
  level: number;
  text: string;
  slug: string;
  line: number;
}

/**
 * GitHub's anchor for a heading (github-slugger): the rendered text (inline code and emphasis marks
 * gone, link text kept), lower-cased, every character but letters, digits, marks, `_`, `-` and spaces
 * dropped, each space a `-`; a repeated slug gets `-1`, `-2`, …
 */
export function slugOf(heading: string): string {
  const rendered = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`/g, "")
    .replace(/(\*\*|__|\*|_)(\S(?:.*?\S)?)\1/g, "$2");
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

export function headings(text: string): Heading[] {
  const seen = new Map<string, number>();
  const out: Heading[] = [];
  for (const { line, text: l } of proseLines(text)) {
    const m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(l);
    if (!m) continue;
    const base = slugOf(m[2]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.push({ level: m[1]!.length, text: m[2]!, slug: n ? `${base}-${n}` : base, line });
  }
  return out;
}

/** Inline links and images outside code: `[text](target)`, with the line they are on. */
export function links(text: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  for (const { line, text: l } of proseLines(text)) {
    const withoutCode = l.replace(/`[^`]*`/g, "");
    for (const m of withoutCode.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push({ target: m[1]!, line });
  }
  return out;
}

export interface CodeBlock {
  language: string;
  code: string;
  /** The HTML comment on the line just above the opening fence, if any (`procedure: …`, `example: …`). */
  note?: string;
  line: number;
}

export function codeBlocks(text: string): CodeBlock[] {
  const lines = text.split("\n");
  const out: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`unclosed code block at line ${i + 1}`);
    const note = /^<!--\s*(.*?)\s*-->$/.exec(lines[i - 1] ?? "")?.[1];
    out.push({ language: open[1]!, code: lines.slice(i + 1, end).join("\n") + "\n", note, line: i + 1 });
    i = end;
  }
  return out;
}

/** The section of a document under `heading` (its exact text, any level), up to the next heading of the same or a higher level. */
export function section(text: string, heading: string): string {
  const lines = text.split("\n");
  const all = headings(text);
  const h = all.find((x) => x.text === heading);
  if (!h) throw new Error(`no heading "${heading}"`);
  const next = all.find((x) => x.line > h.line && x.level <= h.level);
  return lines.slice(h.line, next ? next.line - 1 : lines.length).join("\n");
}
