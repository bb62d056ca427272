/**
 * A release section of a changelog and where it goes in a changelog file, as GitLab's
 * `Gitlab::Changelog::Release` and `Generator` write them: `## <version> (<date>)`, then the
 * template's output for the categories in the order the configuration names them (others as they
 * come), then an empty line; a new section goes before the newest older version's.
 */
import { compareVersions } from "../git/tags.js";
import { parseTemplate, render } from "./template.js";
import type { ChangelogConfig } from "./config.js";

export interface ReleaseEntry {
  title: string;
  category: string;
  /** `<full path>@<commit id>`, GitLab's full reference of a commit. */
  commitReference: string;
  trailers: Record<string, string>;
}

export function releaseMarkdown(version: string, date: Date, entries: ReleaseEntry[], config: ChangelogConfig): string {
  const byCategory = new Map<string, Array<Record<string, unknown>>>(Object.values(config.categories).map((title) => [title, []]));
  for (const entry of entries) {
    const title = config.categories[entry.category] ?? entry.category;
    if (!byCategory.has(title)) byCategory.set(title, []);
    byCategory.get(title)!.push({ title: entry.title, commit: { reference: entry.commitReference, trailers: entry.trailers } });
  }
  const categories = [...byCategory].filter(([, list]) => list.length > 0).map(([title, list]) => ({ title, count: list.length, single_change: list.length === 1, entries: list }));
  const markdown = render(parseTemplate(config.template), { categories }).trim();
  return `## ${version} (${config.formatDate(date)})\n\n${markdown}\n\n`;
}

/** The release header of a changelog line, as GitLab's generator recognises it. */
const RELEASE = /^##\s+(v?(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)/;

/** The changelog with the section inserted; unchanged when it has a section for `version` already. */
export function addRelease(changelog: string, version: string, markdown: string): string {
  const lines = changelog.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const located = new Map<string, number>();
  lines.forEach((line, index) => {
    const found = RELEASE.exec(line);
    if (found && !located.has(found[1]!)) located.set(found[1]!, index);
  });
  if (located.has(version)) return changelog;
  const versions = [version, ...located.keys()].sort((a, b) => compareVersions(b, a));
  const older = versions[versions.indexOf(version) + 1];
  if (older !== undefined) {
    lines.splice(located.get(older)!, 0, markdown);
    return lines.join("");
  }
  // At the end the previous section has one newline only: an empty line keeps them apart.
  return [...lines, ...(versions.length > 1 ? ["\n"] : []), markdown.trimEnd(), "\n"].join("");
}
