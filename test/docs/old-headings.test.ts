/**
 * The README once held the whole documentation in one file. Each of its headings (as of the move to
 * `docs/`) has a home now: this list names it, and the test fails when that file or heading is gone.
 */
import { describe, expect, it } from "vitest";
import { headings, readDoc } from "./support.js";

type Place = [file: string, heading: string];

const MOVED: Record<string, Place[]> = {
  "# Forgeline": [["README.md", "Forgeline"]],
  "## The two commands": [["README.md", "The two commands"], ["docs/contributing.md", "Tests and CI"], ["docs/operators.md", "Starting and stopping"]],
  "## Walk-through": [["README.md", "Walk-through"]],
  "## Where things are": [["README.md", "Where things are"], ["docs/architecture.md", "The route table"], ["docs/gitlab-api.md", "What is served"], ["docs/gitlab-api.md", "Client compatibility"]],
  "## Repository storage moves": [["docs/operators.md", "Repository storage moves"], ["docs/operators.md", "Emptying a storage"], ["docs/architecture.md", "The storage-move state machine"]],
  "### Planning a move, and room on the destination": [["docs/operators.md", "Planning a move, and room on the destination"]],
  "### Canceling a storage-wide move, and its concurrency": [["docs/operators.md", "Canceling a storage-wide move, and its concurrency"]],
  "### Rebalancing by weight": [["docs/operators.md", "Rebalancing by weight"]],
  "### Repository sizes and `statistics`": [["docs/operators.md", "Repository sizes and `statistics`"]],
  "### Crash recovery": [["docs/operators.md", "Crash recovery"]],
  "## Git over HTTP": [["docs/gitlab-api.md", "Git over HTTP"], ["docs/deploying.md", "Git over HTTP on AWS"]],
  "## Error tracking": [["docs/error-tracking.md", "Turning it on"], ["docs/error-tracking.md", "Ingestion and processing"], ["docs/error-tracking.md", "Ingestion limits"]],
  "### Alerts by webhook": [["docs/error-tracking.md", "Alerts by webhook"]],
  "### In the browser": [["docs/error-tracking.md", "The pages (in the browser)"], ["docs/error-tracking.md", "The tracker API, and third-party trackers"]],
  "## Backup, restore and inventory": [["docs/operators.md", "Backup, restore and inventory"]],
  "## Troubleshooting": [["docs/operators.md", "Troubleshooting"], ["README.md", "Troubleshooting"]],
  "## Academic REST interface (`/rest/v2/` = 3.22, `/rest/` = 3.16)": [
    ["docs/academic-rest.md", "Academic REST interface (`/rest/v2/` = 3.22, `/rest/` = 3.16)"],
    ["docs/academic-rest.md", "Overview"],
    ["docs/academic-rest.md", "Decisions where the seed and the original are silent"],
  ],
  "## Security": [["docs/security.md", "Security"]],
  "## Configuration": [["docs/configuration.md", "Configuration"], ["docs/configuration.md", "Instance configuration"]],
  "## Deploying to AWS": [["docs/deploying.md", "Deploying"], ["docs/operators.md", "On AWS: the console, logs and alarms"]],
  "## Lambda bundles and isolated mode": [["docs/architecture.md", "Lambda bundles and isolated mode"], ["docs/deploying.md", "Limits that follow from Lambda"]],
  "## User administration and python-gitlab's functional tests": [
    ["docs/gitlab-api.md", "Users and namespaces"],
    ["docs/gitlab-api.md", "The authenticated API rate limit"],
    ["docs/gitlab-api.md", "Groups, members and sharing"],
    ["docs/gitlab-api.md", "Forks and transfers"],
    ["docs/gitlab-api.md", "Client compatibility"],
  ],
  "## GitLab endpoints not served": [["docs/gitlab-api.md", "GitLab endpoints not served"]],
  // Each decision now sits beside its feature.
  "## Decisions where the specs are silent": [
    ["docs/operators.md", "Troubleshooting"], // a full disk
    ["docs/operators.md", "Repository storage moves"], // read-only repositories
    ["docs/architecture.md", "The write path"],
    ["docs/gitlab-api.md", "Requests, tokens and totals"],
    ["docs/gitlab-api.md", "Users and namespaces"],
    ["docs/gitlab-api.md", "Groups, members and sharing"],
    ["docs/gitlab-api.md", "Projects"],
    ["docs/gitlab-api.md", "Snippets"],
    ["docs/gitlab-api.md", "Wikis"],
    ["docs/gitlab-api.md", "Repository files, commits, branches and tags"],
    ["docs/gitlab-api.md", "Snapshots and archives"],
  ],
  "## Benchmarks": [["docs/benchmarks.md", "Benchmarks"]],
};

/** `grep -n '^#' README.md` before the move, code blocks left out. */
const OLD_HEADINGS = Object.keys(MOVED);

describe("every heading of the old one-file README has a home", () => {
  it("lists each old heading once", () => {
    expect(OLD_HEADINGS).toHaveLength(25);
  });

  for (const old of OLD_HEADINGS) {
    it(`${old} → ${MOVED[old]!.map(([f, h]) => `${f} "${h}"`).join(", ")}`, () => {
      for (const [file, heading] of MOVED[old]!) expect(headings(readDoc(file)).map((h) => h.text), file).toContain(heading);
    });
  }
});
