/** The dashboard's HTML shell and styles; the page itself is built by dashboard-client.ts. */
export { CLIENT_JS } from "./dashboard-client.js";

export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>arus · Structured Streaming</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/uPlot.min.css">
<link rel="stylesheet" href="/static/app.css">
</head>
<body>
<header><a href="/" class="brand">arus</a> <span class="sub">Structured Streaming</span> <span id="status"></span></header>
<main id="app"><p>Loading…</p></main>
<script src="/static/uPlot.iife.min.js"></script>
<script src="/static/app.js"></script>
</body>
</html>
`;

export const CLIENT_CSS = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #222; background: #fafafa; }
header { background: #1d3b53; color: #fff; padding: 8px 16px; }
header a.brand { color: #fff; font-weight: bold; text-decoration: none; font-size: 18px; }
header .sub { opacity: .8; margin-left: 8px; }
#status { float: right; color: #ffb3b3; }
main { padding: 8px 16px 32px; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 24px; } h3 { font-size: 13px; margin: 4px 0; }
table { border-collapse: collapse; background: #fff; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f0f3f6; }
.badge { display: inline-block; border-radius: 10px; padding: 1px 8px; font-size: 12px; font-weight: normal; }
.badge.ok { background: #dff3e0; color: #1b5e20; } .badge.firing { background: #d32f2f; color: #fff; }
.alert.firing { border-left: 4px solid #d32f2f; background: #fff3f3; padding: 4px 8px; margin: 4px 0; }
.state-firing { color: #d32f2f; } .state-resolved { color: #1b5e20; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; }
.chart { background: #fff; border: 1px solid #ddd; padding: 4px; }
pre.watermark, pre.json { background: #fff; border: 1px solid #ddd; padding: 8px; max-width: 1100px; overflow: auto; }
.status-failed, .error { color: #d32f2f; }
button.show-json { font-size: 11px; } a.raw { font-size: 11px; margin-left: 6px; }
.quiet { color: #666; }
`;
