/**
 * GitLab's `search` over branch and tag names (`GitRefsFinder#filter_refs`): case-insensitive,
 * a substring unless `^` anchors the start or `$` the end, and `*` stands for any run of characters.
 */
export function refSearch(term: string | undefined): (name: string) => boolean {
  if (!term) return () => true;
  const escaped = term.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = escaped.replace("\\^", "^").replace(/\\\*/g, ".*?").replace("\\$", "$");
  const regex = new RegExp(pattern, "u");
  return (name) => regex.test(name.toLowerCase());
}
