// Reads voltex-sim's traces for the viewer: the body trace (CSV long or wide,
// JSON document, JSON Lines or a --format glb file) into one frame-major array of
// poses, and the contact and query traces (CSV) by frame.
'use strict';
const fs = require('fs');
const { readGlb } = require('./glb_read');

const POSE = ['px', 'py', 'pz', 'qx', 'qy', 'qz', 'qw'];
const MOTION = ['vx', 'vy', 'vz', 'wx', 'wy', 'wz'];

function fail(message) { throw new Error(message); }

// CSV lines as objects of numbers by column name (the name columns kept as text).
function csvRows(path, required) {
    const lines = fs.readFileSync(path, 'utf8').split('\n').filter((l) => l.length > 0);
    if (lines.length === 0) fail(`${path}: empty file`);
    const header = lines[0].split(',');
    for (const name of required) if (!header.includes(name)) fail(`${path}: no column '${name}' (is it the right trace?)`);
    const text = new Set(['name', 'name_a', 'name_b', 'entity_name', 'type']);
    return lines.slice(1).map((line, i) => {
        const cells = line.split(',');
        if (cells.length !== header.length) fail(`${path}:${i + 2}: ${cells.length} cells for ${header.length} columns`);
        const row = {};
        header.forEach((h, k) => { row[h] = text.has(h) ? cells[k] : Number(cells[k]); });
        return row;
    });
}

// A trace being filled frame by frame.
function builder(names, withMotion) {
    const t = { names, frames: [], times: [], poseChunks: [], motionChunks: withMotion ? [] : null,
                contacts: null, queries: null };
    t.add = (frame, time, bodies) => { // bodies[i] = {p, q, v, w}
        const pose = new Float32Array(names.length * 7), motion = withMotion ? new Float32Array(names.length * 6) : null;
        bodies.forEach((b, i) => {
            pose.set(b.p, i * 7); pose.set(b.q, i * 7 + 3);
            if (motion && b.v) { motion.set(b.v, i * 6); motion.set(b.w, i * 6 + 3); }
        });
        t.frames.push(frame); t.times.push(time); t.poseChunks.push(pose);
        if (motion) t.motionChunks.push(motion);
    };
    t.finish = () => {
        const join = (chunks, width) => {
            const all = new Float32Array(chunks.length * names.length * width);
            chunks.forEach((c, k) => all.set(c, k * names.length * width));
            return all;
        };
        t.poses = join(t.poseChunks, 7);
        t.motion = t.motionChunks ? join(t.motionChunks, 6) : null;
        delete t.poseChunks; delete t.motionChunks; delete t.add; delete t.finish;
        return t;
    };
    return t;
}

// The wide layout (--layout wide): a row per frame, columns NAME.px ...
// NAME.wz, entities in the order of their columns.
function readWideCsv(path, header) {
    const names = [];
    for (const h of header) {
        const dot = h.lastIndexOf('.');
        if (dot > 0 && h.slice(dot + 1) === 'px') names.push(h.slice(0, dot));
    }
    if (names.length === 0) fail(`${path}: no NAME.px column (is it a body trace?)`);
    const withMotion = names.every((n) => header.includes(`${n}.wz`));
    const required = names.flatMap((n) => [...POSE, ...(withMotion ? MOTION : [])].map((c) => `${n}.${c}`));
    const rows = csvRows(path, ['frame', 'time', ...required]);
    const t = builder(names, withMotion);
    for (const r of rows) {
        t.add(r.frame, r.time, names.map((n) => {
            const v = (c) => r[`${n}.${c}`];
            return { p: [v('px'), v('py'), v('pz')], q: [v('qx'), v('qy'), v('qz'), v('qw')],
                     v: withMotion ? [v('vx'), v('vy'), v('vz')] : null, w: withMotion ? [v('wx'), v('wy'), v('wz')] : null };
        }));
    }
    return t.finish();
}

function readCsv(path, text) {
    const header = text.slice(0, text.indexOf('\n') >= 0 ? text.indexOf('\n') : text.length).split(',');
    if (!header.includes('entity')) return readWideCsv(path, header);
    const rows = csvRows(path, ['frame', 'time', 'entity', 'name', ...POSE]);
    const names = [];
    for (const r of rows) { if (r.frame !== rows[0].frame) break; names.push(r.name); }
    const withMotion = rows.length > 0 && 'wz' in rows[0];
    const t = builder(names, withMotion);
    for (let k = 0; k < rows.length; k += names.length) {
        const bodies = [];
        for (let i = 0; i < names.length; i++) {
            const r = rows[k + i];
            if (!r || r.frame !== rows[k].frame || r.entity !== i) fail(`${path}: frame ${rows[k].frame} does not list entities 0..${names.length - 1} in order`);
            bodies.push({ p: [r.px, r.py, r.pz], q: [r.qx, r.qy, r.qz, r.qw],
                          v: withMotion ? [r.vx, r.vy, r.vz] : null, w: withMotion ? [r.wx, r.wy, r.wz] : null });
        }
        t.add(rows[k].frame, rows[k].time, bodies);
    }
    return t.finish();
}

// A JSON document's or JSON Lines' frames (contacts and queries inline).
function readJsonFrames(header, frames) {
    const names = header.entities.map((e) => e.name);
    const t = builder(names, true);
    const contacts = [], queries = [];
    for (const f of frames) {
        t.add(f.frame, f.time, f.bodies);
        contacts.push((f.contacts || []).map((c) => ({ a: c.entity_a, b: c.entity_b, point: c.point_a, normal: c.normal })));
        queries.push(f.queries ? f.queries.map((q) => ({ query: q.query, hits: q.hits.map((h) => h.p) })) : []);
    }
    const trace = t.finish();
    trace.contacts = contacts;
    if (frames.some((f) => f.queries)) trace.queries = queries;
    return trace;
}

function readGlbTrace(path) {
    const g = readGlb(path);
    const dt = g.extras.dt || 1;
    const names = g.nodes.map((n) => n.name);
    const t = builder(names, false);
    for (let k = 0; k < g.times.length; k++) {
        t.add(Math.round(g.times[k] / dt), g.times[k], names.map((_, i) => ({
            p: g.translations[i].subarray(k * 3, k * 3 + 3), q: g.rotations[i].subarray(k * 4, k * 4 + 4) })));
    }
    return t.finish();
}

function readBodyTrace(path) {
    let head;
    try { head = fs.readFileSync(path).subarray(0, 4).toString('latin1'); } catch (e) { fail(`${path}: cannot read: ${e.code || e.message}`); }
    if (head === 'glTF') return readGlbTrace(path);
    const text = fs.readFileSync(path, 'utf8');
    if (text.startsWith('frame,')) return readCsv(path, text);
    if (text.startsWith('{')) {
        const firstLine = text.slice(0, text.indexOf('\n') > 0 ? text.indexOf('\n') : text.length);
        let header;
        try { header = JSON.parse(firstLine); } catch (e) { header = null; }
        if (header && !header.frames) { // JSON Lines: a header line, then a frame a line
            const frames = text.split('\n').slice(1).filter((l) => l.length > 0).map((l) => JSON.parse(l));
            return readJsonFrames(header, frames);
        }
        try { header = JSON.parse(text); } catch (e) { fail(`${path}: not a JSON trace: ${e.message}`); }
        return readJsonFrames(header, header.frames);
    }
    fail(`${path}: not a body trace (CSV, JSON, JSON Lines or glb)`);
}

// Contacts by written frame: [{a, b, point, normal}].
function readContacts(path, trace) {
    const rows = csvRows(path, ['frame', 'entity_a', 'entity_b', 'nx', 'ny', 'nz', 'ax', 'ay', 'az']);
    const at = new Map(trace.frames.map((f, k) => [f, k]));
    const contacts = trace.frames.map(() => []);
    for (const r of rows) {
        const k = at.get(r.frame);
        if (k !== undefined) contacts[k].push({ a: r.entity_a, b: r.entity_b, point: [r.ax, r.ay, r.az], normal: [r.nx, r.ny, r.nz] });
    }
    return contacts;
}

// Query hits by written frame: [{query, hits: [p, ...]}].
function readQueries(path, trace) {
    const rows = csvRows(path, ['frame', 'query', 'hit', 'px', 'py', 'pz']);
    const at = new Map(trace.frames.map((f, k) => [f, k]));
    const queries = trace.frames.map(() => []);
    for (const r of rows) {
        const k = at.get(r.frame);
        if (k === undefined) continue;
        let q = queries[k].find((x) => x.query === r.query);
        if (!q) { q = { query: r.query, hits: [] }; queries[k].push(q); }
        if (r.hit) q.hits.push([r.px, r.py, r.pz]);
    }
    return queries;
}

module.exports = { readBodyTrace, readContacts, readQueries, POSE, MOTION };
