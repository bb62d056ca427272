/** One stylesheet: readable on a laptop (system fonts, 1rem+ text, high contrast, visible focus). */
export const APP_CSS = String.raw`
:root { --fg: #1f1f24; --muted: #5e5e6a; --line: #d9d9e0; --bg: #fbfbfd; --accent: #1f5fbf; --err: #a4161a; --ok: #1b6e2d; --inapp: #fff6d6; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
.top { display: flex; justify-content: space-between; align-items: center; padding: .5rem 1.5rem; background: #24243a; color: #fff; }
.top a, .top span { color: #fff; }
.brand { font-weight: 700; text-decoration: none; }
.signout { margin: 0; display: flex; gap: .5rem; align-items: center; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
h1 { font-size: 1.6rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.2rem; margin-top: 1.5rem; }
.crumbs { color: var(--muted); font-size: .9rem; }
.muted, .hint { color: var(--muted); }
.card { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 1rem 1.25rem; }
.narrow { max-width: 28rem; }
label { font-weight: 600; }
input[type=text], input[type=url], input[type=password], input[type=search], select { font: inherit; padding: .35rem .5rem; border: 1px solid #8a8a99; border-radius: 4px; min-width: 12rem; }
form.card label { display: block; margin-top: .75rem; }
form.card input[type=checkbox] + label, form.card input[type=radio] + label { display: inline; margin: 0; }
fieldset { border: 1px solid var(--line); border-radius: 4px; margin-top: 1rem; }
button { font: inherit; padding: .35rem .9rem; border: 1px solid #8a8a99; border-radius: 4px; background: #fff; cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button:disabled { opacity: .5; cursor: default; }
.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; margin-bottom: 1rem; }
table.errors { width: 100%; border-collapse: collapse; background: #fff; }
table.errors th, table.errors td { text-align: left; padding: .5rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.num { text-align: right !important; font-variant-numeric: tabular-nums; }
.errors td small { display: block; color: var(--muted); }
.pager { margin-top: 1rem; display: flex; gap: .5rem; }
.flash { padding: .6rem .8rem; border-radius: 4px; }
.flash.error { background: #fde8e8; color: var(--err); border: 1px solid #f3b5b5; }
.flash.ok { background: #e6f4ea; color: var(--ok); }
.counters, .tags { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1.5rem; }
.counters dt, .tags dt { font-weight: 600; }
.counters dd, .tags dd { margin: 0; }
.actions { display: flex; gap: .5rem; margin: .5rem 0 1rem; }
.frame { border: 1px solid var(--line); border-radius: 4px; margin: .5rem 0; background: #fff; }
.frame > summary { padding: .4rem .6rem; cursor: pointer; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .9rem; }
.frame.in-app > summary { background: var(--inapp); font-weight: 700; }
.frame .badge { font-family: system-ui, sans-serif; font-size: .75rem; border: 1px solid #b08900; border-radius: 3px; padding: 0 .3rem; margin-left: .5rem; }
.frame pre { margin: 0; padding: .4rem 0; overflow-x: auto; font-size: .85rem; }
.frame .line { display: block; padding: 0 .6rem; white-space: pre; }
.frame .line.hit { background: #ffe0e0; font-weight: 700; }
.frame .ln { display: inline-block; width: 4ch; color: var(--muted); text-align: right; margin-right: 1ch; user-select: none; }
#dsn { width: 100%; font-family: ui-monospace, monospace; }
.chart-heading { font-size: 1rem; margin: .75rem 0 .25rem; }
.chart svg { display: block; max-width: 100%; height: auto; }
.chart.large { margin: .5rem 0 1rem; background: #fff; border: 1px solid var(--line); border-radius: 4px; padding: .25rem; width: max-content; max-width: 100%; }
td.activity { vertical-align: middle; }
@media (forced-colors: active) { .chart rect.bar { fill: CanvasText; stroke: CanvasText; } .chart text { fill: CanvasText; } }
.crumbs a[aria-current] { font-weight: 700; color: var(--fg); }
.storages { display: grid; gap: 1rem; }
.storage h2 { margin-top: 0; }
.storage-bar { display: block; max-width: 100%; height: auto; margin: .25rem 0 .75rem; }
.legend .key { display: inline-block; width: 1rem; height: .8rem; border: 1px solid var(--fg); vertical-align: middle; margin: 0 .25rem 0 .75rem; }
.legend .key.used { background: #4a7fd0; }
.legend .key.out { background: repeating-linear-gradient(45deg, #a4161a 0 2px, #fde8e8 2px 5px); }
.legend .key.in { background: radial-gradient(circle, #1b6e2d 35%, #e6f4ea 40%) 0 0 / 6px 6px; }
.legend .key.free { background: #fff; }
progress { width: 10rem; height: 1rem; vertical-align: middle; }
.progress-cell span, th[scope=row] small, td small { display: block; font-size: .85rem; color: var(--muted); font-weight: normal; }
ul.counts { list-style: none; margin: 0; padding: 0; font-size: .85rem; }
.charts { display: flex; flex-wrap: wrap; gap: 1rem; }
.state-machine-box { overflow-x: auto; background: #fff; border: 1px solid var(--line); border-radius: 4px; padding: .5rem; }
svg.state-machine { display: block; max-width: 100%; height: auto; }
svg.state-machine .state.visited > rect { fill: #e6f4ea; stroke: #1b6e2d; stroke-width: 2; }
svg.state-machine .state.container.visited > rect { fill: #f3faf5; }
svg.state-machine .state.current > rect { fill: #fff3c4; stroke: #1f1f24; stroke-width: 4; }
svg.state-machine .state.failed > rect { fill: #fde8e8; stroke: #a4161a; stroke-width: 3; stroke-dasharray: 6 3; }
svg.state-machine .mark { font-weight: 700; }
pre.terminal { background: #1f1f24; color: #f4f4f8; padding: .75rem 1rem; border-radius: 4px; overflow-x: auto; font-size: .85rem; }
section.card { margin-bottom: 1rem; }
dialog { border: 1px solid var(--line); border-radius: 6px; max-width: 36rem; }
dialog::backdrop { background: rgba(0, 0, 0, .35); }
@media (forced-colors: active) { svg.state-machine .state.current > rect { stroke: Highlight; } svg.state-machine .state.failed > rect { stroke: Mark; } .storage-bar rect { stroke: CanvasText; } }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
