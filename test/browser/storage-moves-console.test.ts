/**
 * The operator console in Chromium, during a real storage-wide move of 30 projects (through the API
 * and the state machine, on a runtime of this file's own): planned and scheduled from the plan page
 * (the CLI's very lines, a confirmation stating bytes and destination), bytes leaving `default` on
 * the storages page, the state a held move is in highlighted on its page, the moves page's progress
 * rising to the end without a reload (the same document and the same row throughout), then a second
 * storage-wide move slowed and canceled from the moves page, with the outcome the API's cancel test
 * proves. The moves' copies wait at a gate the test opens batch by batch, so every step is seen.
 * All under the pages' Content-Security-Policy; screenshots go to test-artifacts/.
 */
import { describe, it, expect, beforeAll, afterAll, afterEach } from "vitest";
import type { Page } from "playwright-core";
import { injectMoveFaults } from "../../functions/moves/domain/fault-injection.js";
import { runMovesCli } from "../../functions/moves/cli/commands.js";
import { connect } from "../../functions/moves/cli/client.js";
import { bytesText } from "../../functions/moves/domain/plan-text.js";
import { startIsolatedRuntime, type IsolatedRuntime } from "../moves/isolated-runtime.js";
import { call, commit, newProject, scheduleMove, storageOf, waitForMove } from "../moves/support.js";
import { StorageIOError } from "../../functions/moves/domain/errors.js";
import { launch, screenshot, signIn, type LaunchedBrowser } from "./support.js";

const PROJECTS = 30;
const CANCELED = "Canceled by an administrator";

let iso: IsolatedRuntime;
let browser: LaunchedBrowser;
let projects: number[];
const requested: string[] = [];

beforeAll(async () => {
  iso = await startIsolatedRuntime({}, { bulkPageSize: 10 });
  // Pages of 10 in batches of 5: each page is two batches, each batch one step of the gate.
  process.env.FORGELINE_MOVE_BATCH_SIZE = "5";
  projects = [];
  for (let i = 0; i < PROJECTS; i++) projects.push((await newProject(iso)).id);
  for (const id of projects.slice(0, 10)) expect((await commit(iso, id, `history of ${id}`)).status).toBe(201);
  browser = await launch();
  browser.context.on("request", (request) => void requested.push(request.url()));
  await signIn(browser.page, iso.baseUrl, iso.token, "/admin/storages");
});
afterAll(async () => {
  injectMoveFaults(undefined);
  await browser?.close();
  await iso?.stop();
});
afterEach(() => {
  expect(browser.violations).toEqual([]);
  // Nothing from outside the machine: every request the pages made went to this instance.
  expect(requested.length).toBeGreaterThan(0);
  expect(requested.filter((url) => !url.startsWith(`${iso.baseUrl}/`))).toEqual([]);
});

/** Copies wait here until the test lets them through, one batch per permit. */
function gate() {
  let permits = 0;
  let arrived = 0;
  const waiting: Array<() => void> = [];
  injectMoveFaults(async (point, phase) => {
    if (point !== "moveReplicate" || phase !== "before") return;
    arrived++;
    if (permits > 0) return void permits--;
    await new Promise<void>((resolve) => waiting.push(resolve));
  });
  return {
    arrived: () => arrived,
    waiting: () => waiting.length,
    allow(n = 1) {
      for (let i = 0; i < n; i++) {
        const next = waiting.shift();
        if (next) next();
        else permits++;
      }
    },
    open() {
      injectMoveFaults(undefined);
      waiting.splice(0).forEach((resolve) => resolve());
    },
  };
}

async function cli(...argv: string[]) {
  const lines: string[] = [];
  await runMovesCli(argv, connect({ FORGELINE_URL: iso.baseUrl, FORGELINE_TOKEN: iso.token }), (l) => lines.push(l));
  return lines;
}

/** A plan's text with each replica's free space as `<n> free`: the disk's free space moves while the machine works. */
const sameFreeSpace = (text: string | null) => (text ?? "").replace(/: \d+(\.\d+)? (B|KiB|MiB|GiB) free$/gm, ": <n> free");

const bulkRow = (page: Page, source: string) => page.locator(`#bulk-rows tr[data-key="project-${source}"]`);
const progressOf = async (page: Page, source: string) => Number(await bulkRow(page, source).locator("progress").getAttribute("value"));
const leavingOf = async (page: Page, storage: string) => Number(await page.locator(`section[data-storage="${storage}"] [data-f="leaving"]`).getAttribute("value"));
const moves = async () => (await call(iso, "GET", "/api/v4/project_repository_storage_moves?per_page=100")).body as Array<{ id: number; state: string; error_message: string | null; source_storage_name: string; project: { id: number } }>;

describe("the operator console during a storage-wide move of 30 projects", () => {
  it("plans it, schedules it after a confirmation, shows bytes leaving default, the held move's state, and the progress rising to the end without a reload", async () => {
    const { page } = browser;
    const hold = gate();
    try {
      // The storages page before: everything on default.
      await page.goto(`${iso.baseUrl}/admin/storages`);
      await expect.poll(() => page.locator('section[data-storage="default"] [data-f="repositories"]').textContent()).toMatch(/^30 projects \(/);
      await screenshot(page, "console-storages-before.png");

      // The plan page: what the CLI prints, then the move, confirmed.
      await page.goto(`${iso.baseUrl}/admin/storage_moves/plan`);
      await page.getByLabel("From", { exact: true }).selectOption("default");
      await page.getByLabel("To", { exact: true }).selectOption("cluster");
      await page.getByRole("button", { name: "Show the plan" }).first().click();
      // Free space is the file system's, which other processes change between two reads: its figures are compared by shape.
      const cliPlan = (await cli("plan", "--from", "default", "--to", "cluster")).join("\n");
      await expect.poll(async () => sameFreeSpace(await page.locator("#plan-text").textContent())).toBe(sameFreeSpace(cliPlan));
      const plan = (await call(iso, "GET", "/api/v4/repository_storages/move_plan?source_storage_name=default&destination_storage_name=cluster")).body;
      await page.getByRole("button", { name: "Schedule this move" }).click();
      const dialog = page.getByRole("dialog");
      expect(plan.total_bytes).toBeGreaterThan(0);
      await expect.poll(() => dialog.locator("#confirm-text").textContent()).toBe(
        `Move ${PROJECTS} repositories, ${bytesText(plan.total_bytes)} in all, off default to cluster? ${PROJECTS} projects (${bytesText(plan.total_bytes)}). They become read-only a page at a time while they move.`,
      );
      await screenshot(page, "console-plan-confirm.png");
      await dialog.getByRole("button", { name: /^Move .+ to cluster$/ }).click();
      await expect.poll(() => page.locator("#plan-done").textContent()).toBe("Scheduled. Follow it on Storage moves.");

      // Held at the gate: bytes leave default for cluster.
      await expect.poll(() => hold.waiting()).toBeGreaterThanOrEqual(2);
      await page.goto(`${iso.baseUrl}/admin/storages`);
      await expect.poll(() => leavingOf(page, "default")).toBeGreaterThan(0);
      expect(Number(await page.locator('section[data-storage="cluster"] [data-f="arriving"]').getAttribute("value"))).toBe(await leavingOf(page, "default"));
      expect(await page.locator('section[data-storage="default"] svg.storage-bar').getAttribute("aria-label")).toMatch(/^default: .+ on it, .+ of it leaving, .+ free\.$/);
      expect(await page.locator('section[data-storage="default"] svg.storage-bar rect.seg.out').count()).toBe(1);
      await screenshot(page, "console-storages-leaving.png");

      // A held move's page: the state it is in, highlighted.
      const held = (await moves()).find((m) => m.state === "started")!;
      await page.goto(`${iso.baseUrl}/admin/storage_moves/project/${held.id}`);
      const replicate = page.locator('svg.state-machine g.state[data-state="Replicate"]');
      await expect.poll(() => replicate.getAttribute("class")).toContain("current");
      expect(await replicate.locator("text.mark").textContent()).toBe("▶ now");
      expect(await replicate.getAttribute("aria-current")).toBe("step");
      for (const done of ["Route", "StartMoves", "WritesDrained"]) expect(await page.locator(`g.state[data-state="${done}"]`).getAttribute("class"), done).toContain("visited");
      expect(await page.locator('g.state[data-state="SwitchStorage"]').getAttribute("class")).toBe("state");
      expect(await page.locator("g.state.current").count()).toBe(1);
      await expect.poll(() => page.locator("#path li").last().textContent()).toBe("Replicate (Task) now");
      expect(await page.getByRole("img", { name: "The storage-move state machine (storage-move.asl.json)" }).count()).toBe(1);
      await screenshot(page, "console-move-running.png");

      // The moves page: progress rises batch by batch to the end, in the same document, the same row.
      await page.goto(`${iso.baseUrl}/admin/storage_moves`);
      await expect.poll(() => bulkRow(page, "default").count()).toBe(1);
      // Marks on the document and on the row, which a reload or a re-render would lose.
      await page.evaluate(() => void ((globalThis as { __sameDocument?: string }).__sameDocument = "yes"));
      await bulkRow(page, "default").evaluate((row) => void ((row as unknown as { __sameRow?: string }).__sameRow = "yes"));
      let seen = await progressOf(page, "default");
      expect(seen).toBe(0);
      const rises: number[] = [];
      for (let batch = 0; batch < PROJECTS / 5; batch++) {
        hold.allow();
        await expect.poll(() => progressOf(page, "default")).toBeGreaterThan(seen);
        seen = await progressOf(page, "default");
        rises.push(seen);
        if (batch === 2) await screenshot(page, "console-moves-progress.png");
      }
      expect(rises.at(-1)).toBe(1);
      expect(rises.length).toBeGreaterThanOrEqual(3);
      await expect.poll(() => bulkRow(page, "default").locator('[data-f="status"]').textContent()).toMatch(/^ended /);
      expect(await bulkRow(page, "default").locator('[data-f="finished"]').textContent()).toBe("30");
      expect(await bulkRow(page, "default").locator('[data-f="done"]').textContent()).toBe("30 of 30 done (100%)");
      expect(await page.evaluate(() => (globalThis as { __sameDocument?: string }).__sameDocument)).toBe("yes");
      expect(await bulkRow(page, "default").evaluate((row) => (row as unknown as { __sameRow?: string }).__sameRow)).toBe("yes");
      // The throughput of the last hour, drawn with the error pages' chart code, with its numbers in words.
      await expect.poll(() => page.locator('#chart-moves ul.chart-data data').evaluateAll((d) => d.reduce((n, e) => n + Number(e.getAttribute("value")), 0))).toBe(PROJECTS);
      expect(await page.getByRole("img", { name: "Bytes copied per second, last hour" }).locator("desc").textContent()).toMatch(/^Peak .+\/s in the minute of .+, average .+\/s over the last 60 minutes\./);
      await screenshot(page, "console-moves-finished.png");
    } finally {
      hold.open();
    }
    await iso.runtime.settle();
    for (const id of projects) expect(await storageOf("project", id)).toBe("cluster");

    // Afterwards: nothing left on default, everything on the cluster.
    await page.goto(`${iso.baseUrl}/admin/storages`);
    await expect.poll(() => page.locator('section[data-storage="default"] [data-f="repositories"]').textContent()).toMatch(/^0 projects/);
    expect(await leavingOf(page, "default")).toBe(0);
    await expect.poll(() => page.locator('section[data-storage="cluster"] [data-f="repositories"]').textContent()).toMatch(/^30 projects \(/);
    await screenshot(page, "console-storages-after.png");
  }, 600_000);

  it("changes the concurrency of a second one and cancels it from the moves page: no further page, what was scheduled fails writable, what started finishes", async () => {
    const { page } = browser;
    const since = Math.max(...(await moves()).map((m) => m.id));
    const hold = gate();
    try {
      expect((await call(iso, "POST", "/api/v4/project_repository_storage_moves", { body: { source_storage_name: "cluster", destination_storage_name: "default" } })).status).toBe(202);
      // The first page's two batches copy (held); the second page is scheduled meanwhile.
      await expect.poll(() => hold.waiting()).toBe(2);
      await expect.poll(async () => (await moves()).filter((m) => m.id > since).length).toBe(20);
      await page.goto(`${iso.baseUrl}/admin/storage_moves`);
      const row = bulkRow(page, "cluster");
      await expect.poll(() => row.locator('[data-f="status"]').textContent()).toBe("running");

      await row.getByRole("button", { name: /^Concurrency/ }).click();
      const dialog = page.getByRole("dialog");
      await expect.poll(() => dialog.locator("#confirm-text").textContent()).toBe("How many project moves off cluster may run at once? It applies from the next page the move schedules.");
      await dialog.getByLabel("Moves at once").fill("3");
      await dialog.getByRole("button", { name: "Change concurrency" }).click();
      await expect.poll(() => row.locator('[data-f="concurrency"]').textContent()).toBe("(3)");
      const bulk = (await call(iso, "GET", "/admin/storage_moves.json")).body.bulk_moves.find((b: { source_storage_name: string }) => b.source_storage_name === "cluster");
      expect(bulk).toMatchObject({ concurrency: 3, running: true });

      await row.getByRole("button", { name: "Cancel" }).click();
      await expect.poll(() => dialog.locator("#confirm-text").textContent()).toBe(
        "Cancel the project moves off cluster? No further page is scheduled; the 10 scheduled now fail and stay writable on cluster; the 10 already under way run to their end.",
      );
      await screenshot(page, "console-moves-cancel-confirm.png");
      await dialog.getByRole("button", { name: "Cancel the project moves off cluster" }).click();
      await expect.poll(() => page.locator("#announce").textContent()).toMatch(/^10 scheduled moves failed: Canceled by an administrator; moves already started run to their end$/);
      await expect.poll(() => row.locator('[data-f="status"]').textContent()).toMatch(/^canceled .+, ending$/);
      // The copies under way go on (the next page's batches, all canceled, pass the gate with nothing to copy).
      hold.open();
      await expect.poll(() => row.locator('[data-f="status"]').textContent()).not.toMatch(/ending$/);
      expect(await row.locator('[data-f="status"]').textContent()).toMatch(/^canceled /);
      expect(await row.locator('[data-f="finished"]').textContent()).toBe("10");
      expect(await row.locator('[data-f="failed"]').textContent()).toBe("10");
      for (const b of await row.getByRole("button").all()) expect(await b.isDisabled()).toBe(true);
      await screenshot(page, "console-moves-canceled.png");
    } finally {
      hold.open();
    }
    await iso.runtime.settle();
    // As the API's cancel test proves it: the started moves finished, the scheduled ones failed writable
    // on their source, no third page was scheduled, so ten projects never moved.
    const second = (await moves()).filter((m) => m.id > since);
    expect(second).toHaveLength(20);
    const finished = second.filter((m) => m.state === "finished");
    const failed = second.filter((m) => m.state === "failed");
    expect(finished).toHaveLength(10);
    expect(failed).toHaveLength(10);
    expect(failed.every((m) => m.error_message === CANCELED)).toBe(true);
    for (const m of finished) expect(await storageOf("project", m.project.id)).toBe("default");
    for (const m of failed) {
      expect(await storageOf("project", m.project.id)).toBe("cluster");
      expect((await commit(iso, m.project.id, "writable after the cancel")).status).toBe(201);
    }
    const touched = new Set(second.map((m) => m.project.id));
    for (const id of projects.filter((p) => !touched.has(p))) expect(await storageOf("project", id)).toBe("cluster");
    expect((await call(iso, "POST", "/api/v4/project_repository_storage_moves/cancel", { body: { source_storage_name: "cluster" } })).status).toBe(404);
  }, 300_000);

  it("marks where a failed move failed, with its cause, in the drawing and in words", async () => {
    const { page } = browser;
    injectMoveFaults((point, phase) => {
      if (point === "moveReplicate" && phase === "before") throw new StorageIOError("injected: no space left on the destination");
    });
    try {
      const move = await scheduleMove(iso, "project", projects[0]!, "secondary");
      expect(await waitForMove(iso, "project", move.id)).toMatchObject({ state: "failed" });
    } finally {
      injectMoveFaults(undefined);
    }
    await iso.runtime.settle();
    const failed = (await moves())[0]!;
    await page.goto(`${iso.baseUrl}/admin/storage_moves/project/${failed.id}`);
    const replicate = page.locator('svg.state-machine g.state[data-state="Replicate"]');
    await expect.poll(() => replicate.getAttribute("class")).toBe("state failed");
    expect(await replicate.locator("text.mark").textContent()).toBe("✗ failed");
    expect(await page.locator("#failure").textContent()).toBe("Failed in Replicate: injected: no space left on the destination");
    for (const done of ["MarkFailed", "MoveFailed"]) expect(await page.locator(`g.state[data-state="${done}"]`).getAttribute("class"), done).toBe("state visited");
    expect(await page.locator("g.state.current").count()).toBe(0);
    expect(await page.locator("#path").textContent()).toContain("Replicate (Task) failed");
    await screenshot(page, "console-move-failed.png");
  });

  it("filters the moves list and pages it, older and back to the newest, the filters kept in the address", async () => {
    const { page } = browser;
    const all = (await moves()).map((m) => `Project move ${m.id}`);
    expect(all.length).toBeGreaterThan(40);
    await page.goto(`${iso.baseUrl}/admin/storage_moves`);
    const shown = () => page.locator("#rows tr td:first-child a").allTextContents();
    await expect.poll(shown).toEqual(all.slice(0, 20));
    await page.getByRole("button", { name: "Older ›" }).click();
    await expect.poll(shown).toEqual(all.slice(20, 40));
    expect(page.url()).toMatch(/\?cursor=/);
    await page.getByRole("button", { name: "« Newest" }).click();
    await expect.poll(shown).toEqual(all.slice(0, 20));
    await page.getByLabel("State").selectOption("failed");
    const failed = (await moves()).filter((m) => m.state === "failed").map((m) => `Project move ${m.id}`);
    await expect.poll(shown).toEqual(failed.slice(0, 20));
    expect(new URL(page.url()).searchParams.get("state")).toBe("failed");
    expect(await page.locator('#rows tr[data-state="failed"] [data-f="error"]').first().textContent()).toMatch(/^(Canceled by an administrator|injected: no space left on the destination)$/);
  });

  it("shows what `rebalance --dry-run` prints before anything starts", async () => {
    const { page } = browser;
    await page.goto(`${iso.baseUrl}/admin/storage_moves/plan`);
    await page.getByLabel("Tolerance (percentage points)").fill("10");
    await page.locator("#rebalance-form").getByRole("button", { name: "Show the plan" }).click();
    await expect.poll(() => page.locator("#rebalance-text").textContent()).toBe((await cli("rebalance", "--dry-run", "--tolerance", "10")).join("\n"));
    expect(await page.locator("#rebalance-run").isDisabled()).toBe(false);
    await screenshot(page, "console-rebalance-plan.png");
  });

  it("runs the rebalance, and counts a move it can no longer read as failed instead of asking again forever", async () => {
    const { page } = browser;
    await page.goto(`${iso.baseUrl}/admin/storage_moves/plan`);
    await page.getByLabel("Tolerance (percentage points)").fill("10");
    await page.locator("#rebalance-form").getByRole("button", { name: "Show the plan" }).click();
    await expect.poll(() => page.locator("#rebalance-run").isDisabled()).toBe(false);
    const planned = Number(/^Schedule these (\d+) moves$/.exec((await page.locator("#rebalance-run").textContent())!)![1]);
    // Every move's state answers 404 from here on, as when the session ended.
    let asked = 0;
    await page.route(/\/api\/v4\/[a-z]+_repository_storage_moves\/\d+$/, (route) => {
      asked++;
      return route.fulfill({ status: 404, contentType: "application/json", body: JSON.stringify({ message: "404 Not found" }) });
    });
    try {
      await page.locator("#rebalance-run").click();
      await page.getByRole("dialog").locator("#confirm-ok").click();
      await expect.poll(() => page.locator("#rebalance-log li").last().textContent()).toBe(`0 finished, ${planned} failed, 0 skipped.`);
      expect(await page.locator("#rebalance-log li").first().textContent()).toMatch(/^[a-z]+ \d+ → [\w-]+: move \d+ could not be read: /);
      expect(asked).toBe(planned);
    } finally {
      await page.unrouteAll();
    }
    await iso.runtime.settle();
  });
});
