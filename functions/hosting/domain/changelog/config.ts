/**
 * A project's changelog configuration (`.gitlab/changelog_config.yml` by default), as GitLab's
 * `Gitlab::Changelog::Config` reads it: `date_format` (strftime), `categories` (trailer value →
 * section title), `template`, `tag_regex` (which tags name versions, with `major`, `minor`, `patch`
 * and `pre` groups). Errors are the changelog's 422s.
 */
import { ConfigSyntaxError, parseConfigYaml } from "./config-yaml.js";
import { DEFAULT_TEMPLATE, parseTemplate, TemplateError } from "./template.js";

export class ChangelogError extends Error {}

/** GitLab's `DEFAULT_TAG_REGEX`: a semantic version, optionally after a `v`. */
const DEFAULT_TAG_REGEX = String.raw`^v?(?<major>0|[1-9]\d*)\.(?<minor>0|[1-9]\d*)\.(?<patch>0|[1-9]\d*)(?:-(?<pre>(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+(?<meta>[0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`;

export interface ChangelogConfig {
  categories: Record<string, string>;
  template: string;
  tagRegex: RegExp;
  formatDate: (date: Date) => string;
}

export function changelogConfig(yaml: string | undefined): ChangelogConfig {
  let raw: Record<string, unknown> = {};
  try {
    raw = yaml === undefined ? {} : parseConfigYaml(yaml);
  } catch (err) {
    if (err instanceof ConfigSyntaxError) throw new ChangelogError(`The changelog configuration could not be read: ${err.message}`);
    throw err;
  }
  const categories = raw.categories ?? {};
  if (typeof categories !== "object") throw new ChangelogError('The "categories" configuration key must be a Hash');
  const template = typeof raw.template === "string" ? raw.template : DEFAULT_TEMPLATE;
  try {
    parseTemplate(template);
  } catch (err) {
    if (err instanceof TemplateError) throw new ChangelogError(err.message);
    throw err;
  }
  let tagRegex: RegExp;
  try {
    // RE2's `(?P<name>` is JavaScript's `(?<name>`.
    tagRegex = new RegExp(typeof raw.tag_regex === "string" ? raw.tag_regex.replace(/\(\?P</g, "(?<") : DEFAULT_TAG_REGEX);
  } catch {
    throw new ChangelogError('The "tag_regex" configuration key is not a valid regular expression');
  }
  const format = typeof raw.date_format === "string" ? raw.date_format : "%Y-%m-%d";
  return { categories: Object.fromEntries(Object.entries(categories).map(([k, v]) => [k, String(v)])), template, tagRegex, formatDate: (date) => strftime(format, date) };
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const two = (n: number) => String(n).padStart(2, "0");

/** Ruby's `strftime` for the directives dates use, in UTC. */
function strftime(format: string, d: Date): string {
  const directives: Record<string, () => string> = {
    Y: () => String(d.getUTCFullYear()),
    y: () => two(d.getUTCFullYear() % 100),
    m: () => two(d.getUTCMonth() + 1),
    d: () => two(d.getUTCDate()),
    e: () => String(d.getUTCDate()).padStart(2, " "),
    B: () => MONTHS[d.getUTCMonth()]!,
    b: () => MONTHS[d.getUTCMonth()]!.slice(0, 3),
    A: () => DAYS[d.getUTCDay()]!,
    a: () => DAYS[d.getUTCDay()]!.slice(0, 3),
    H: () => two(d.getUTCHours()),
    M: () => two(d.getUTCMinutes()),
    S: () => two(d.getUTCSeconds()),
    "%": () => "%",
  };
  return format.replace(/%(.)/g, (all, key: string) => directives[key]?.() ?? all);
}
