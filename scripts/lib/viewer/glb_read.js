// Reads a glTF 2.0 binary file as voltex-sim --format glb writes it: the
// meshes, the nodes (one per entity, in entity order), and the animation's
// translation and rotation keyframes per node.
'use strict';
const fs = require('fs');

function fail(message) { throw new Error(message); }

function readGlb(path) {
    const data = fs.readFileSync(path);
    if (data.length < 20 || data.toString('latin1', 0, 4) !== 'glTF') fail(`${path}: not a glTF binary file`);
    const jsonLength = data.readUInt32LE(12);
    const json = JSON.parse(data.toString('utf8', 20, 20 + jsonLength));
    const binStart = 20 + jsonLength + 8;
    const bin = binStart <= data.length ? data.subarray(binStart) : Buffer.alloc(0);
    const widths = { SCALAR: 1, VEC3: 3, VEC4: 4 };

    function accessor(index) {
        const a = json.accessors[index];
        const view = json.bufferViews[a.bufferView];
        const offset = (view.byteOffset || 0) + (a.byteOffset || 0);
        const n = a.count * widths[a.type];
        const bytes = bin.subarray(offset, offset + n * 4);
        const copy = new Uint8Array(bytes); // aligned for the typed array
        return a.componentType === 5125 ? new Uint32Array(copy.buffer) : new Float32Array(copy.buffer);
    }

    const meshes = (json.meshes || []).map((m) => {
        const p = m.primitives[0];
        return {
            positions: accessor(p.attributes.POSITION),
            normals: p.attributes.NORMAL !== undefined ? accessor(p.attributes.NORMAL) : null,
            indices: accessor(p.indices),
            twoSided: !!(json.materials && json.materials[p.material] && json.materials[p.material].doubleSided),
        };
    });
    const nodes = (json.nodes || []).map((n) => ({ name: n.name, mesh: n.mesh === undefined ? -1 : n.mesh }));
    const extras = (json.scenes && json.scenes[0] && json.scenes[0].extras) || {};

    // keyframes: times, and per node its translations (3 a frame) and rotations (4)
    let times = new Float32Array(0);
    const translations = nodes.map(() => null), rotations = nodes.map(() => null);
    const animation = json.animations && json.animations[0];
    if (animation) {
        for (const c of animation.channels) {
            const s = animation.samplers[c.sampler];
            times = accessor(s.input);
            (c.target.path === 'translation' ? translations : rotations)[c.target.node] = accessor(s.output);
        }
    }
    return { meshes, nodes, extras, times, translations, rotations };
}

module.exports = { readGlb };
