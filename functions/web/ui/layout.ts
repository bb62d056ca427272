/**
 * Server-rendered page shell: semantic HTML, one stylesheet and one script served by this backend
 * (no CDN, works offline). Everything interpolated goes through `escapeHtml`.
 */
import { escapeHtml } from "../../platform/escape-html.js";
export { escapeHtml };

export interface PageOptions {
  title: string;
  body: string;
  /** The signed-in user's CSRF token; enables the sign-out form and JSON writes from scripts. */
  csrfToken?: string;
  username?: string;
  /** Extra `data-*` attributes for the page script (e.g. the project path). */
  data?: Record<string, string>;
  script?: string;
}

export function page(opts: PageOptions): string {
  const data = Object.entries(opts.data ?? {})
    .map(([k, v]) => ` data-${k}="${escapeHtml(v)}"`)
    .join("");
  const signOut = opts.csrfToken
    ? `<form method="post" action="/users/sign_out" class="signout"><input type="hidden" name="authenticity_token" value="${escapeHtml(opts.csrfToken)}"><span>${escapeHtml(opts.username)}</span> <button type="submit">Sign out</button></form>`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${opts.csrfToken ? `<meta name="csrf-token" content="${escapeHtml(opts.csrfToken)}">` : ""}
<title>${escapeHtml(opts.title)} · Forgeline</title>
<link rel="stylesheet" href="/-/assets/app.css">
</head>
<body${data}>
<header class="top"><a href="/" class="brand">Forgeline</a>${signOut}</header>
<main id="main">
${opts.body}
</main>
${opts.script ? `<script type="module" src="/-/assets/${escapeHtml(opts.script)}.js"></script>` : ""}
</body>
</html>`;
}
