/**
 * Text as HTML: the five characters HTML gives meaning (`&`, `<`, `>`, `"`, `'`) as entities, so the
 * result is safe as element content and as a quoted attribute value. No imports: any bundle may carry it.
 */
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export const escapeHtml = (value: unknown): string => String(value ?? "").replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
