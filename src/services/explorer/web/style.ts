/** The pages' one style sheet: readable tables and IDs, light and dark, no web fonts. */
export const STYLE_SHEET = `:root { color-scheme: light dark; --fg: #1d232b; --muted: #66707c; --line: #d9dee4; --bg: #ffffff; --panel: #f5f7f9; --link: #0b5cad; --ok: #1a7f37; --bad: #b42318; --bar: #3b82c4; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e9ed; --muted: #9aa4ae; --line: #333b44; --bg: #14181d; --panel: #1c2229; --link: #7cb7f2; --ok: #4ac26b; --bad: #f47067; --bar: #5aa0e0; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--link); text-decoration: none; } a:hover { text-decoration: underline; }
header.site { display: flex; flex-wrap: wrap; gap: 12px 24px; align-items: center; padding: 12px 24px; border-bottom: 1px solid var(--line); background: var(--panel); }
header.site .brand { font-weight: 700; font-size: 17px; color: var(--fg); }
header.site nav { display: flex; gap: 16px; }
form.search { display: flex; flex: 1 1 360px; gap: 6px; }
form.search input { flex: 1; padding: 7px 10px; font: inherit; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); }
form.search button { padding: 7px 14px; font: inherit; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); cursor: pointer; }
main { max-width: 1200px; margin: 0 auto; padding: 8px 24px 32px; }
h1 { font-size: 22px; margin: 16px 0 12px; overflow-wrap: anywhere; } h2 { font-size: 17px; margin: 24px 0 8px; } h3 { font-size: 15px; margin: 16px 0 6px; }
.columns { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 0 32px; }
table { width: 100%; border-collapse: collapse; font-size: 14px; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 6px 18px; margin: 0; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
code, .id { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 13px; overflow-wrap: anywhere; }
code.data { display: block; max-height: 8em; overflow: auto; }
.muted, .empty { color: var(--muted); }
.amount { font-variant-numeric: tabular-nums; white-space: nowrap; }
.chain { display: inline-block; min-width: 1.6em; text-align: center; border-radius: 4px; padding: 0 4px; font-weight: 600; font-size: 12px; border: 1px solid var(--line); }
.chain-X { color: #8a4b00; } .chain-P { color: #5b3cc4; } .chain-C { color: #0b7a75; }
.ok, .unspent { color: var(--ok); } .failed, .problem { color: var(--bad); }
q.memo { font-style: italic; white-space: pre-wrap; }
ol.logs { padding-left: 20px; } li.log { margin-bottom: 14px; }
.decoded { border-left: 3px solid var(--line); padding-left: 12px; margin: 6px 0; }
.decoded .event { font-size: 15px; }
details summary { cursor: pointer; color: var(--muted); }
figure.chart { margin: 12px 0; } figure.chart svg { width: 100%; height: auto; max-height: 320px; }
.chart .bar { fill: var(--bar); } .chart .bar:hover, .chart .bar.active { fill: var(--ok); }
.chart .axis { stroke: var(--muted); } .chart .tick { fill: var(--muted); font-size: 11px; }
.paging, .more { margin: 8px 0; }
footer { max-width: 1200px; margin: 0 auto; padding: 16px 24px; color: var(--muted); font-size: 13px; border-top: 1px solid var(--line); }
`;
