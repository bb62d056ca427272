/**
 * Walking 20,000 projects with GitLab's keyset pagination (`pagination=keyset&order_by=id`, 100 per
 * page, following `Link: rel="next"`) against the bare DynamoDB Query that reads the same index page
 * by page (`ExclusiveStartKey`, 100 items) on the same stand-in, in the same run. The note compares
 * the last pages with the first: a keyset page costs the same wherever it is.
 *
 * The projects are table items written in batches from a real project's item (no repositories: a
 * list never opens one), and deleted again afterwards so the benchmarks after this one (storage
 * moves) see only their own data.
 */
import { docQuery } from "../functions/platform/db/document.js";
import { resources } from "../functions/platform/resources.js";
import { getItem, nextIds, writeBatch, GSI1, type Item } from "../functions/platform/db/table.js";
import { allProjectsIndex, containerKey } from "../functions/hosting/domain/keys.js";
import { percentile } from "./load.js";

interface Ctx {
  baseUrl: string;
  adminToken: string;
}

const PROJECTS = 20_000;
const PER_PAGE = 100;

async function seed(ctx: Ctx): Promise<number[]> {
  const res = await fetch(`${ctx.baseUrl}/api/v4/projects`, {
    method: "POST",
    headers: { "Private-Token": ctx.adminToken, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "keyset-template" }),
  });
  const template = (await res.json()) as { id: number };
  const key = containerKey("project", template.id);
  const item = (await getItem<Item>(key.pk, key.sk))!;
  const ids = await nextIds("projects", PROJECTS);
  // Only the container item (the all-projects index): no storage index entry, so no storage move picks these up.
  const { gsi2pk: _pk, gsi2sk: _sk, ...rest } = item;
  await writeBatch(ids.map((id) => ({ put: { ...rest, ...containerKey("project", id), ...allProjectsIndex(id), id, path: `keyset-${id}`, name: `keyset-${id}` } })));
  return [template.id, ...ids];
}

/** Milliseconds of each page of a walk through `fetchPage`, which answers the next cursor or none. */
async function timedWalk<C>(first: C, fetchPage: (cursor: C) => Promise<{ next?: C; count: number }>): Promise<{ times: number[]; count: number }> {
  const times: number[] = [];
  let count = 0;
  for (let cursor: C | undefined = first; cursor !== undefined; ) {
    const t0 = performance.now();
    const page: { next?: C; count: number } = await fetchPage(cursor);
    times.push(performance.now() - t0);
    count += page.count;
    cursor = page.next;
  }
  return { times, count };
}

const p = (times: number[], q: number) => percentile([...times].sort((a, b) => a - b), q);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export async function run(ctx: Ctx) {
  const seeded = await seed(ctx);
  try {
    const headers = { "Private-Token": ctx.adminToken };
    const keyset = await timedWalk(`${ctx.baseUrl}/api/v4/projects?pagination=keyset&order_by=id&sort=asc&per_page=${PER_PAGE}`, async (url) => {
      const res = await fetch(url, { headers });
      const body = (await res.json()) as unknown[];
      if (res.status !== 200) throw new Error(`keyset page: ${res.status} ${JSON.stringify(body)}`);
      return { next: /<([^>]+)>; rel="next"/.exec(res.headers.get("link") ?? "")?.[1], count: body.length };
    });
    const raw = await timedWalk<Record<string, unknown> | "start">("start", async (cursor) => {
      const out = await docQuery({
        TableName: resources.mainTable(),
        IndexName: GSI1,
        KeyConditionExpression: "gsi1pk = :pk",
        ExpressionAttributeValues: { ":pk": "PROJECTS" },
        ScanIndexForward: true,
        Limit: PER_PAGE,
        ExclusiveStartKey: cursor === "start" ? undefined : cursor,
      });
      return { next: out.LastEvaluatedKey, count: out.Items?.length ?? 0 };
    });
    if (keyset.count < PROJECTS) throw new Error(`the keyset walk saw ${keyset.count} projects, fewer than the ${PROJECTS} seeded`);
    const edge = 10;
    const lastOverFirst = mean(keyset.times.slice(-edge)) / mean(keyset.times.slice(0, edge));
    return [
      {
        name: `GET /api/v4/projects keyset walk of ${keyset.count} projects, ${PER_PAGE} per page (per page)`,
        baseline: "bare Query of the same index page by page, same stand-in",
        p50: p(keyset.times, 50),
        p99: p(keyset.times, 99),
        baselineP50: p(raw.times, 50),
        baselineP99: p(raw.times, 99),
        note: `${keyset.times.length} pages; last ${edge} pages cost ${lastOverFirst.toFixed(2)}× the first ${edge}`,
      },
    ];
  } finally {
    await writeBatch(seeded.slice(1).map((id) => ({ delete: containerKey("project", id) })));
    await fetch(`${ctx.baseUrl}/api/v4/projects/${seeded[0]}`, { method: "DELETE", headers: { "Private-Token": ctx.adminToken } });
  }
}
