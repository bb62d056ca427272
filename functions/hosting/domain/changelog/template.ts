/**
 * GitLab's changelog template language (`Gitlab::TemplateParser`): `{{ a.b }}` prints a value,
 * `{% if a %}…{% else %}…{% end %}` tests one, `{% each a %}…{% end %}` repeats its body with each
 * element of a list as the data. A newline right after a `{% … %}` tag and a backslash-newline are
 * dropped, so a template can put tags on lines of their own.
 */
export class TemplateError extends Error {}

type Node =
  | { kind: "text"; text: string }
  | { kind: "value"; path: string[] }
  | { kind: "if"; path: string[]; then: Node[]; otherwise: Node[] }
  | { kind: "each"; path: string[]; body: Node[] };

const TOKEN = /\{\{\s*([\w.]+)\s*\}\}|\{%\s*(if|each|else|end)\s*([\w.]*)\s*%\}/g;

export function parseTemplate(source: string): Node[] {
  const input = source.replace(/%\}\n/g, "%}").replace(/\\\n/g, "");
  const root: Node[] = [];
  const stack: Array<{ node: Extract<Node, { kind: "if" | "each" }>; into: Node[] }> = [];
  let current = root;
  let last = 0;
  for (const match of input.matchAll(TOKEN)) {
    if (match.index > last) current.push({ kind: "text", text: input.slice(last, match.index) });
    last = match.index + match[0].length;
    const [, value, tag, argument] = match;
    if (value) current.push({ kind: "value", path: value.split(".") });
    else if (tag === "if" || tag === "each") {
      if (!argument) throw new TemplateError(`{% ${tag} %} needs a variable`);
      const node: Extract<Node, { kind: "if" | "each" }> = tag === "if" ? { kind: "if", path: argument.split("."), then: [], otherwise: [] } : { kind: "each", path: argument.split("."), body: [] };
      current.push(node);
      stack.push({ node, into: current });
      current = node.kind === "if" ? node.then : node.body;
    } else if (tag === "else") {
      const open = stack.at(-1);
      if (open?.node.kind !== "if") throw new TemplateError("{% else %} outside of an {% if %}");
      current = open.node.otherwise;
    } else {
      const open = stack.pop();
      if (!open) throw new TemplateError("{% end %} without a tag to close");
      current = open.into;
    }
  }
  if (stack.length > 0) throw new TemplateError(`an {% ${stack.at(-1)!.node.kind} %} is not closed with {% end %}`);
  if (last < input.length) current.push({ kind: "text", text: input.slice(last) });
  return root;
}

type Data = Record<string, unknown>;

const lookup = (scopes: Data[], path: string[]): unknown => {
  // A name is looked up in the innermost data that has it, then followed through its fields.
  const start = [...scopes].reverse().find((scope) => scope && typeof scope === "object" && path[0]! in scope);
  return path.reduce<unknown>((value, key) => (value && typeof value === "object" ? (value as Data)[key] : undefined), start);
};

const truthy = (value: unknown) => value !== undefined && value !== null && value !== false && value !== "" && !(Array.isArray(value) && value.length === 0);

export function render(nodes: Node[], data: Data, scopes: Data[] = [data]): string {
  let out = "";
  for (const node of nodes) {
    if (node.kind === "text") out += node.text;
    else if (node.kind === "value") {
      const value = lookup(scopes, node.path);
      out += value === undefined || value === null ? "" : String(value);
    } else if (node.kind === "if") out += render(truthy(lookup(scopes, node.path)) ? node.then : node.otherwise, data, scopes);
    else {
      const list = lookup(scopes, node.path);
      if (Array.isArray(list)) for (const item of list) out += render(node.body, data, [...scopes, item as Data]);
    }
  }
  return out;
}

/** GitLab's default changelog template (`lib/gitlab/changelog/template.tpl`). */
export const DEFAULT_TEMPLATE = `{% if categories %}
{% each categories %}
### {{ title }} ({% if single_change %}1 change{% else %}{{ count }} changes{% end %})

{% each entries %}
- [{{ title }}]({{ commit.reference }})\\
{% if author.credit %} by {{ author.reference }}{% end %}\\
{% if merge_request %} ([merge request]({{ merge_request.reference }})){% end %}

{% end %}

{% end %}
{% else %}
No changes.
{% end %}
`;
