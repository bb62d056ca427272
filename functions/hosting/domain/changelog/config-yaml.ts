/**
 * The YAML of a changelog configuration, read for the shape GitLab documents for it: top-level
 * `key: value` scalars (plain, 'single' or "double" quoted), `categories:` with one indented
 * `key: value` per line, and block scalars (`|`, `|-`, `>`, `>-`) for a template. A full YAML parser
 * would not fit the function's bundle budget; anything outside this shape is refused with the line
 * it is on rather than read wrongly.
 */
export class ConfigSyntaxError extends Error {}

type Value = string | Record<string, string>;

const KEY = /^([A-Za-z0-9_-]+):(?:\s+(.*))?$/;

export function parseConfigYaml(text: string): Record<string, Value> {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const out: Record<string, Value> = {};
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "" || line.trimStart().startsWith("#") || line === "---") continue;
    const match = KEY.exec(line);
    if (!match) throw new ConfigSyntaxError(`line ${i + 1} is not a "key: value" line`);
    const [, key, rest = ""] = match;
    const block = /^([|>])(-?)\s*$/.exec(rest);
    if (block) {
      const body: string[] = [];
      while (i + 1 < lines.length && (lines[i + 1]!.trim() === "" || /^\s/.test(lines[i + 1]!))) body.push(lines[++i]!);
      const indent = Math.min(...body.filter((l) => l.trim() !== "").map((l) => l.length - l.trimStart().length));
      const kept = body.map((l) => l.slice(Math.min(indent, l.length)));
      while (kept.length > 0 && kept.at(-1) === "") kept.pop();
      const joined = block[1] === "|" ? kept.join("\n") : kept.join("\n").replace(/([^\n])\n(?=[^\n])/g, "$1 ");
      out[key!] = block[2] === "-" ? joined : `${joined}\n`;
    } else if (rest.trim() === "") {
      const mapping: Record<string, string> = {};
      while (i + 1 < lines.length && /^\s+\S/.test(lines[i + 1]!)) {
        const entry = KEY.exec(lines[++i]!.trim());
        if (!entry || !entry[2]) throw new ConfigSyntaxError(`line ${i + 1} is not a "key: value" line`);
        mapping[entry[1]!] = scalar(entry[2], i);
      }
      out[key!] = mapping;
    } else out[key!] = scalar(rest, i);
  }
  return out;
}

function scalar(raw: string, index: number): string {
  const text = raw.trim();
  if (text.startsWith("'")) {
    if (!/^'(?:[^']|'')*'$/.test(text)) throw new ConfigSyntaxError(`line ${index + 1} has an unclosed quote`);
    return text.slice(1, -1).replace(/''/g, "'");
  }
  if (text.startsWith('"')) {
    try {
      return JSON.parse(text) as string;
    } catch {
      throw new ConfigSyntaxError(`line ${index + 1} has a double-quoted value this service does not read`);
    }
  }
  // A flow collection is kept as text (GitLab then refuses `categories` that is not a mapping).
  if (/^[&*!|>@`]/.test(text)) throw new ConfigSyntaxError(`line ${index + 1} uses YAML this service does not read`);
  return text.replace(/\s+#.*$/, "");
}
