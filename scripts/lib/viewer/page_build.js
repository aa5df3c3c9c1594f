// The viewer's page: page.html with three.js inlined (an import map of data:
// URLs, so nothing is fetched and file:// works) and the run's data as JSON,
// typed arrays in base64 (the page grows with the frames written).
'use strict';
const fs = require('fs');
const path = require('path');

const THREE_DIR = path.join(__dirname, '..', '..', '..', 'node_modules', 'three');

function moduleUrl(source) { return `data:text/javascript;base64,${Buffer.from(source).toString('base64')}`; }

function importMap() {
    const read = (p) => {
        try { return fs.readFileSync(path.join(THREE_DIR, p), 'utf8'); } catch (e) {
            throw new Error(`three.js is not installed (${p}): run npm ci in the source tree (scripts/view_trace does)`);
        }
    };
    const core = read('build/three.core.js');
    const main = read('build/three.module.js').split("'./three.core.js'").join("'three/core'");
    const controls = read('examples/jsm/controls/OrbitControls.js');
    return JSON.stringify({ imports: { three: moduleUrl(main), 'three/core': moduleUrl(core),
                                       'three/addons/OrbitControls.js': moduleUrl(controls) } });
}

function b64(typed) { return typed ? Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength).toString('base64') : null; }

function pageData({ scene, dt, shapes, trace, golden, extras }) {
    const round = (v) => Math.round(v * 1e6) / 1e6;
    return {
        scene, dt, names: trace.names,
        meshes: shapes.meshes.map((m) => ({ positions: b64(m.positions), normals: b64(m.normals), indices: b64(m.indices), twoSided: m.twoSided })),
        nodeMesh: shapes.nodes.map((n) => n.mesh),
        frames: trace.frames, times: trace.times,
        poses: b64(trace.poses), motion: b64(trace.motion),
        contacts: trace.contacts ? trace.contacts.map((list) => list.flatMap((c) => [...c.point, ...c.normal].map(round))) : null,
        joints: extras.joints,
        queries: extras.queries,
        hits: trace.queries ? trace.queries.map((list) => list.map((q) => [q.query, ...q.hits.flat().map(round)])) : null,
        golden: golden ? { poses: b64(golden.poses), deviation: b64(golden.deviation), frameMax: Array.from(golden.frameMax),
                           firstOver: golden.firstOver, tolerance: golden.tolerance, rtol: golden.rtol } : null,
    };
}

function buildPage(input) {
    const template = fs.readFileSync(path.join(__dirname, 'page.html'), 'utf8');
    const data = JSON.stringify(pageData(input)).replace(/</g, '\\u003c');
    return template.replace('<!--VX_IMPORTMAP-->', () => `<script type="importmap">${importMap()}</script>`)
                   .replace('<!--VX_DATA-->', () => `<script type="application/json" id="vx-data">${data}</script>`)
                   .replace('<!--VX_TITLE-->', () => String(input.scene).replace(/[<&]/g, ''));
}

module.exports = { buildPage };
