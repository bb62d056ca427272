/**
 * What the console's page modules share (`/-/assets/admin/console.js`): sizes and durations in the
 * words `npm run moves` uses, in-place updates of a list (so polling changes only what changed: no
 * flicker, scroll and focus stay), and the confirmation dialog every action goes through.
 */
export const CONSOLE_JS = String.raw`
export const TYPE_NAMES = { project: "Project", snippet: "Snippet", group: "Group wiki" };
export const PLURAL = { project: "projects", snippet: "snippets", group: "groups" };
export const TERMINAL = ["finished", "failed", "cleanup failed"];

/** As the CLI prints sizes (functions/moves/domain/plan-text.ts). */
export const bytesText = (n) => (n < 1024 ? n + " B" : n < 1024 ** 2 ? (n / 1024).toFixed(1) + " KiB" : n < 1024 ** 3 ? (n / 1024 ** 2).toFixed(1) + " MiB" : (n / 1024 ** 3).toFixed(2) + " GiB");

/** As the CLI says durations: seconds under a minute, minutes under an hour, then hours. */
export function durationText(seconds) {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return s + " s";
  if (s < 3600) return Math.ceil(s / 60) + " min";
  const h = Math.floor(s / 3600);
  const m = Math.ceil((s % 3600) / 60);
  return m ? h + " h " + m + " min" : h + " h";
}

/** Sets a node's text only when it differs, so an unchanged poll touches nothing. */
export function setText(node, value) {
  const text = value === null || value === undefined ? "" : String(value);
  if (node && node.textContent !== text) node.textContent = text;
}

export function setAttr(node, name, value) {
  const text = String(value);
  if (node && node.getAttribute(name) !== text) node.setAttribute(name, text);
}

/** The child of a row that shows one field (its data-f attribute). */
export const field = (node, name) => node.querySelector('[data-f="' + name + '"]');

/**
 * Keeps a container's children in step with items, by key: a listed row is updated in place by
 * update(row, item), a new one made by make(item), one no longer listed removed; order follows items.
 */
export function patch(container, items, keyOf, make, update) {
  for (const node of [...container.children]) if (!node.dataset.key) node.remove();
  const existing = new Map([...container.children].map((n) => [n.dataset.key, n]));
  let previous = null;
  for (const item of items) {
    const key = String(keyOf(item));
    let node = existing.get(key);
    if (node) existing.delete(key);
    else { node = make(item); node.dataset.key = key; }
    update(node, item);
    const expected = previous ? previous.nextElementSibling : container.firstElementChild;
    if (node !== expected) container.insertBefore(node, expected);
    previous = node;
  }
  for (const node of existing.values()) node.remove();
}

/** A placeholder row ("Loading…", "No moves.") in place of a list's rows. */
export function placeholder(container, columns, text) {
  const row = document.createElement("tr");
  const cell = document.createElement("td");
  cell.colSpan = columns;
  cell.className = "muted";
  cell.textContent = text;
  row.append(cell);
  container.replaceChildren(row);
}

/**
 * The page's confirmation dialog: resolves true (or, with opts.value, the value typed) when
 * confirmed, false when dismissed.
 */
export function confirmWith(text, opts = {}) {
  const dialog = document.getElementById("confirm");
  document.getElementById("confirm-text").textContent = text;
  document.getElementById("confirm-ok").textContent = opts.ok || "Confirm";
  const box = document.getElementById("confirm-field");
  const input = document.getElementById("confirm-input");
  if (box) box.hidden = opts.value === undefined;
  if (input && opts.value !== undefined) input.value = String(opts.value);
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok" ? (opts.value !== undefined ? input.value : true) : false), { once: true });
    dialog.showModal();
    (opts.value !== undefined ? input : document.getElementById("confirm-ok")).focus();
  });
}
`;
