// Diff mode: the run against its golden, number by number as voltex-sim
// --compare does (time, p, q, and v, w when both traces have them; a number
// is over when |run - golden| > tolerance + rtol |golden|), so the first
// frame over the tolerance is the one --compare reports.
'use strict';

function goldenDiff(run, golden, opt, goldenPath) {
    const n = run.names.length, frames = run.frames.length;
    if (golden.names.join('\n') !== run.names.join('\n')) throw new Error(`${goldenPath}: its entities are not the run's`);
    const at = new Map(golden.frames.map((f, k) => [f, k]));
    const poses = new Float32Array(frames * n * 7);
    const deviation = new Float32Array(frames * n); // per body: its largest difference at the frame
    const frameMax = new Float32Array(frames);
    const columns = ['px', 'py', 'pz', 'qx', 'qy', 'qz', 'qw'];
    const motion = run.motion && golden.motion;
    let firstOver = null;
    for (let k = 0; k < frames; k++) {
        const g = at.get(run.frames[k]);
        if (g === undefined) throw new Error(`${goldenPath}: no frame ${run.frames[k]} (the run's)`);
        poses.set(golden.poses.subarray(g * n * 7, (g + 1) * n * 7), k * n * 7);
        const over = (a, b) => Math.abs(a - b) > opt.tolerance + opt.rtol * Math.abs(b);
        const timeOver = over(run.times[k], golden.times[g]);
        for (let i = 0; i < n; i++) {
            if (timeOver && !firstOver) firstOver = { index: k, frame: run.frames[k], entity: i, name: run.names[i], column: 'time', run: run.times[k], golden: golden.times[g] };
            const pairs = [];
            for (let c = 0; c < 7; c++) pairs.push([columns[c], run.poses[(k * n + i) * 7 + c], golden.poses[(g * n + i) * 7 + c]]);
            if (motion) {
                const names = ['vx', 'vy', 'vz', 'wx', 'wy', 'wz'];
                for (let c = 0; c < 6; c++) pairs.push([names[c], run.motion[(k * n + i) * 6 + c], golden.motion[(g * n + i) * 6 + c]]);
            }
            let dev = 0;
            for (const [column, a, b] of pairs) {
                dev = Math.max(dev, Math.abs(a - b));
                if (!firstOver && over(a, b)) firstOver = { index: k, frame: run.frames[k], entity: i, name: run.names[i], column, run: a, golden: b };
            }
            deviation[k * n + i] = dev;
            frameMax[k] = Math.max(frameMax[k], dev);
        }
    }
    return { poses, deviation, frameMax, firstOver, tolerance: opt.tolerance, rtol: opt.rtol };
}

module.exports = { goldenDiff };
