// scripts/view_trace: a run as one self-contained HTML page (docs/viewer.md).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { readGlb } = require('./glb_read');
const { readBodyTrace, readContacts, readQueries } = require('./trace_read');
const { goldenDiff } = require('./golden_diff');
const { buildPage } = require('./page_build');

const USAGE = `Usage: scripts/view_trace SCENE.json TRACE -o OUT.html [OPTIONS]
Writes one HTML page (works offline, from file://) that replays the run:
TRACE is a body trace (CSV, JSON, JSON Lines) or a --format glb file.
  -o, --output FILE     the page to write (required unless --video)
  --golden GOLDEN       diff mode: the golden run as ghosts, bodies coloured by deviation
  --tolerance EPS       absolute tolerance per number, as voltex-sim --compare (default 1e-05)
  --rtol R              relative tolerance, as voltex-sim --compare (default 0)
  --contacts FILE       contact trace (CSV) to draw (a JSON trace carries its own)
  --queries FILE        query trace (CSV) to draw the rays of
  --video OUT           also render the replay to OUT.mp4 or OUT.gif (headless chromium, ffmpeg)
  --sim PATH            voltex-sim to read the scene's shapes with (default: $VOLTEX_SIM)
  -h, --help            this help`;

function die(message, code = 2) {
    process.stderr.write(`view_trace: ${message.split('\n')[0]}\n`);
    process.exit(code);
}

function parseArgs(argv) {
    const opt = { tolerance: 1e-5, rtol: 0, positional: [] };
    const valued = { '-o': 'output', '--output': 'output', '--golden': 'golden', '--tolerance': 'tolerance',
                     '--rtol': 'rtol', '--contacts': 'contacts', '--queries': 'queries', '--video': 'video', '--sim': 'sim' };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === '-h' || a === '--help') { process.stdout.write(USAGE + '\n'); process.exit(0); }
        if (valued[a]) {
            if (i + 1 >= argv.length) die(`${a} needs a value`);
            opt[valued[a]] = argv[++i];
        } else if (a.startsWith('-') && a !== '-') {
            die(`unknown option '${a}' (try --help)`);
        } else {
            opt.positional.push(a);
        }
    }
    if (opt.positional.length !== 2) die('expected SCENE.json and TRACE (try --help)');
    for (const k of ['tolerance', 'rtol']) {
        const v = Number(opt[k]);
        if (!Number.isFinite(v) || v < 0) die(`--${k}: expected a number >= 0, got '${opt[k]}'`);
        opt[k] = v;
    }
    if (!opt.output && !opt.video) die('missing -o OUT.html (or --video OUT)');
    if (opt.video && !/\.(mp4|gif)$/.test(opt.video)) die(`--video: expected a .mp4 or .gif file, got '${opt.video}'`);
    opt.sim = opt.sim || process.env.VOLTEX_SIM;
    if (!opt.sim) die('no voltex-sim: give --sim PATH or set VOLTEX_SIM');
    return opt;
}

// The scene's shapes as voltex-sim draws them: its glb of no steps.
function sceneShapes(sim, scene, dir) {
    const out = path.join(dir, 'shapes.glb');
    const r = spawnSync(sim, [scene, '-n', '0', '-q', '-f', 'glb', '-o', out], { encoding: 'utf8' });
    if (r.error) die(`cannot run ${sim}: ${r.error.code || r.error.message}`);
    if (r.status !== 0) die((r.stderr || `${sim} failed`).trim());
    return readGlb(out);
}

// Joints and queries as the scene file names them (entity names to indices).
function sceneExtras(scenePath, names) {
    let scene;
    try { scene = JSON.parse(fs.readFileSync(scenePath, 'utf8')); } catch (e) { return { joints: [], queries: [] }; }
    const index = (n) => (n === undefined || n === null ? -1 : names.indexOf(n));
    // the world points at load where each side holds: a distance joint's
    // anchor_a and anchor_b, the others' one anchor (null: the default)
    const joints = (scene.joints || []).map((j, i) => ({
        name: j.name || `joint${i}`, a: index(j.a), b: index(j.b), distance: j.type === 'distance',
        anchorA: (j.type === 'distance' ? j.anchor_a : j.anchor) || null,
        anchorB: (j.type === 'distance' ? j.anchor_b : j.anchor) || null }));
    const queries = (scene.queries || []).map((q, i) => ({
        name: q.name || `query${i}`, type: q.type, origin: q.origin || null, direction: q.direction || null,
        maxDistance: q.max_distance || 1000, attached: index(q.attached_to) }));
    return { joints, queries };
}

function main() {
    const opt = parseArgs(process.argv.slice(2));
    const [scenePath, tracePath] = opt.positional;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'view_trace-'));
    try {
        const shapes = sceneShapes(opt.sim, scenePath, dir);
        const trace = readBodyTrace(tracePath);
        const names = shapes.nodes.map((n) => n.name);
        if (trace.names.join('\n') !== names.join('\n'))
            die(`${tracePath}: its entities (${trace.names.length}) are not the scene's (${names.length}): another scene's trace?`);
        if (opt.contacts) trace.contacts = readContacts(opt.contacts, trace);
        if (opt.queries) trace.queries = readQueries(opt.queries, trace);
        const golden = opt.golden ? goldenDiff(trace, readBodyTrace(opt.golden), opt, opt.golden) : null;
        const html = buildPage({ scene: shapes.extras.name || path.basename(scenePath, '.json'), dt: shapes.extras.dt,
                                 shapes, trace, golden, extras: sceneExtras(scenePath, names) });
        const page = opt.output || path.join(dir, 'page.html');
        const temp = `${page}.tmp-${process.pid}`;
        fs.writeFileSync(temp, html);
        fs.renameSync(temp, page);
        if (opt.video) {
            const { renderVideo } = require('./video');
            return renderVideo(page, opt.video, trace, dir).then(() => fs.rmSync(dir, { recursive: true, force: true }));
        }
    } catch (e) {
        fs.rmSync(dir, { recursive: true, force: true });
        die(e.message);
    }
    fs.rmSync(dir, { recursive: true, force: true });
    return Promise.resolve();
}

Promise.resolve().then(main).catch((e) => die(e.message, 1));
