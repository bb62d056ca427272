import * as z from "zod/mini";
import { defineEndpoint } from "../../../platform/http/endpoint.js";
import { lambda } from "../../../platform/http/lambda.js";
import { positiveInt } from "../../../platform/http/params.js";
import { allStates, layoutStateMachine } from "../../../moves/domain/asl-graph.js";
import { STORAGE_MOVE_DEFINITION } from "../../../moves/domain/storage-move-definition.js";
import { notFoundPage } from "../../ui/not-found.js";
import { stateMachineSvg } from "../ui/state-machine-svg.js";
import { consolePage, escapeHtml, refusal } from "../ui/admin-page.js";

const TYPE_NAMES: Record<string, string> = { project: "Project", snippet: "Snippet", group: "Group wiki" };

/** Drawn once per process: the definition is the one the state machine runs, bundled with this function. */
let drawing: string | undefined;
function stateMachine(): string {
  const states = allStates(STORAGE_MOVE_DEFINITION);
  return (drawing ??= stateMachineSvg(layoutStateMachine(STORAGE_MOVE_DEFINITION), {
    id: "sm",
    title: "The storage-move state machine (storage-move.asl.json)",
    description: `${states.length} states. The states this move went through are marked done, the one it is in now is marked now, and a state where it failed is marked failed; the list after the drawing says the same in words.`,
  }));
}

/**
 * Admin area › Storage moves › one move: its timeline, checksum, execution and the state machine
 * drawn from `storage-move.asl.json` with this move's path marked; `admin/move.js` fills and marks
 * it from `…/details.json`, polling while the move runs.
 */
export const endpoint = defineEndpoint(
  // Type and id are read only after the refusal: anyone but an administrator is answered as every
  // other console page answers them (sign in first, or the 404 page), whatever the address holds.
  { summary: "Storage move page (console)", access: "public", params: z.object({ type: z.string(), id: z.string() }) },
  async ({ c, principal, params }) => {
    const refused = refusal(c, principal);
    if (refused || !principal) return refused;
    const name = Object.hasOwn(TYPE_NAMES, params.type) ? TYPE_NAMES[params.type] : undefined;
    if (!name) return notFoundPage(c, principal);
    const id = z.parse(positiveInt(), params.id);
    const title = `${name} move ${id}`;
    return consolePage(c, principal, {
      title,
      script: "move",
      data: { type: params.type, id: String(id) },
      body: `<h1 id="title">${escapeHtml(title)}</h1>
<p id="announce" class="visually-hidden" aria-live="polite"></p>
<p id="problem" class="flash error" role="alert" hidden></p>
<section aria-labelledby="summary-h"><h2 id="summary-h" class="visually-hidden">Summary</h2><dl id="summary" class="tags"><dt>State</dt><dd>Loading…</dd></dl></section>
<section aria-labelledby="timeline-h"><h2 id="timeline-h">Timeline</h2>
<table class="errors"><caption class="visually-hidden">Steps of this move, oldest first</caption><thead><tr><th scope="col">Step</th><th scope="col">When</th><th scope="col" class="num">Took</th><th scope="col">Detail</th></tr></thead><tbody id="timeline"></tbody></table></section>
<section aria-labelledby="sm-h"><h2 id="sm-h">State machine</h2>
<p class="muted">Drawn from <code>storage-move.asl.json</code>, the definition the executions run. <span class="key-mark">✓</span> done · <span class="key-mark">▶</span> now (heavy outline) · <span class="key-mark">✗</span> failed (dashed outline).</p>
<p id="failure" class="flash error" hidden></p>
<div class="state-machine-box">${stateMachine()}</div>
<h3 class="chart-heading">Its path, in words</h3><ol id="path" class="path"></ol></section>
<section aria-labelledby="events-h"><h2 id="events-h">Execution events</h2><p id="events-note" class="muted"></p>
<table class="errors"><caption class="visually-hidden">Events of the execution, oldest first</caption><thead><tr><th scope="col" class="num">#</th><th scope="col">When</th><th scope="col">Event</th><th scope="col">State</th><th scope="col">Detail</th></tr></thead><tbody id="events"></tbody></table></section>`,
    });
  },
);
export const handler = lambda(endpoint);
