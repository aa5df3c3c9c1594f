#!/usr/bin/env node
// The replay viewer in a real browser (Debian's chromium through
// playwright-core): node viewer_browser.js VOLTEX_SIM WORK_DIR. Prints a
// line per check and "N passed, N failed"; exits 77 with a SKIP line when the
// browser cannot start, else 1 when a check failed.
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync, spawnSync } = require('child_process');
const ROOT = path.join(__dirname, '..', '..');
const { launch, openViewer, CHROMIUM } = require(path.join(ROOT, 'scripts/lib/viewer/browser'));

const [sim, dir] = process.argv.slice(2);
const scenes = path.join(ROOT, 'scenes');
let passed = 0, failed = 0;
function check(ok, what, detail = '') {
    if (ok) passed++; else failed++;
    console.log(`${ok ? 'ok' : 'FAILED'} - ${what}${ok || !detail ? '' : `: ${detail}`}`);
}
const run = (args) => execFileSync(sim, args, { cwd: dir });
function viewTrace(args) {
    const r = spawnSync('node', [path.join(ROOT, 'scripts/lib/viewer/view_trace.js'), ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, VOLTEX_SIM: sim } });
    if (r.status !== 0) throw new Error(`view_trace ${args.join(' ')}: ${r.stderr}`);
}

async function main() {
    // ball_drop every other frame: poses, contacts; spheres_falling with s3 made bouncy, against its golden
    run([path.join(scenes, 'ball_drop.json'), '-n', '120', '--every', '2', '-q', '-o', 'ball.csv', '--contacts', 'ball_contacts.csv']);
    viewTrace([path.join(scenes, 'ball_drop.json'), 'ball.csv', '--contacts', 'ball_contacts.csv', '-o', 'ball.html']);
    run([path.join(scenes, 'spheres_falling.json'), '-q', '--set', 'entities[4].rigidbody.restitution=0.9', '-o', 'bouncy.csv']);
    const golden = path.join(ROOT, 'tests/golden/spheres_falling.csv');
    const compare = spawnSync(sim, [path.join(scenes, 'spheres_falling.json'), '--set', 'entities[4].rigidbody.restitution=0.9', '--compare', golden], { encoding: 'utf8' });
    const reported = /frame (\d+) entity (\d+) \(([^)]+)\)/.exec(compare.stderr);
    viewTrace([path.join(scenes, 'spheres_falling.json'), 'bouncy.csv', '--golden', golden, '-o', 'diff.html']);
    const sizes = [fs.statSync(path.join(dir, 'ball.html')).size];
    // the same run in the wide layout; the ragdoll's joints
    run([path.join(scenes, 'ball_drop.json'), '-n', '120', '--every', '2', '-q', '--layout', 'wide', '-o', 'ball_wide.csv']);
    viewTrace([path.join(scenes, 'ball_drop.json'), 'ball_wide.csv', '-o', 'ball_wide.html']);
    run([path.join(scenes, 'ragdoll.json'), '-n', '90', '-q', '-o', 'ragdoll.csv']);
    viewTrace([path.join(scenes, 'ragdoll.json'), 'ragdoll.csv', '-o', 'ragdoll.html']);

    let browser;
    try { browser = await launch(); } catch (e) {
        console.log(`SKIP: the browser (${CHROMIUM}) cannot start: ${e.message.split('\n')[0]}`);
        process.exit(77);
    }
    try {
        const { page, errors } = await openViewer(browser, path.join(dir, 'ball.html'));
        // frame index k of the page is trace frame 2k: the ball's drawn position is the trace's
        const rows = fs.readFileSync(path.join(dir, 'ball.csv'), 'utf8').split('\n').filter((l) => /^\d+,[^,]+,1,/.test(l));
        let worst = 0;
        for (const k of [0, 17, 40, 60]) {
            const want = rows[k].split(',').slice(4, 7).map(Number);
            const got = await page.evaluate((i) => { window.vx.setFrame(i); return window.vx.drawnPosition('ball'); }, k);
            for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(got[c] - want[c]));
        }
        check(worst < 1e-6, 'the ball is drawn where the trace puts it (frames 0, 34, 80, 120)', `off by ${worst}`);
        await page.evaluate(() => window.vx.setFrame(0));
        const before = await page.evaluate(() => window.vx.pixels());
        await page.fill('#timeline', '45'); // the user's scrub: the input event of the range
        await page.dispatchEvent('#timeline', 'input');
        const after = await page.evaluate(() => window.vx.pixels());
        check(await page.evaluate(() => window.vx.frame()) === 45 && before.hash !== after.hash, 'scrubbing the timeline changes the picture');
        check(before.colours > 16 && before.share > 0.05, 'the picture is not blank', JSON.stringify(before));
        await page.screenshot({ path: path.join(dir, 'ball.png') });
        check(fs.statSync(path.join(dir, 'ball.png')).size > 10000, 'a screenshot is taken');
        check(errors.length === 0, 'no console error and nothing fetched', errors.join(' | '));
        await page.close();

        const wide = await openViewer(browser, path.join(dir, 'ball_wide.html'));
        let wideWorst = 0;
        for (const k of [0, 17, 40, 60]) {
            const want = rows[k].split(',').slice(4, 7).map(Number);
            const got = await wide.page.evaluate((i) => { window.vx.setFrame(i); return window.vx.drawnPosition('ball'); }, k);
            for (let c = 0; c < 3; c++) wideWorst = Math.max(wideWorst, Math.abs(got[c] - want[c]));
        }
        check(wideWorst < 1e-6 && wide.errors.length === 0, 'a wide CSV trace (--layout wide) draws the ball where the long one does',
              `off by ${wideWorst} ${wide.errors.join(' | ')}`);
        await wide.page.close();

        // the spine (a ball joint of pelvis and chest) is drawn through its
        // anchor, which both bodies hold together as they fall
        const doll = await openViewer(browser, path.join(dir, 'ragdoll.html'));
        let gap = 0, through = true;
        for (const k of [0, 30, 60, 90]) {
            const [a, b, lines] = await doll.page.evaluate((i) => {
                window.vx.setFrame(i);
                return [...window.vx.jointAnchors('spine'), window.vx.jointLines()];
            }, k);
            gap = Math.max(gap, Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
            let nearest = Infinity;
            for (let m = 0; m + 2 < lines.length; m += 3) {
                nearest = Math.min(nearest, Math.hypot(lines[m] - a[0], lines[m + 1] - a[1], lines[m + 2] - a[2]));
            }
            through = through && nearest < 1e-4;
        }
        check(gap < 1e-3 && through && doll.errors.length === 0,
              'joints are drawn through their anchors, which stay together (the ragdoll\'s spine)', `gap ${gap} m, through ${through}`);
        await doll.page.close();

        const diff = await openViewer(browser, path.join(dir, 'diff.html'));
        const first = await diff.page.evaluate(() => window.vx.firstOver());
        check(reported && first && first.frame === Number(reported[1]) && first.name === reported[3],
              `diff mode finds the frame and body voltex-sim --compare reports (${reported && reported[0]})`, JSON.stringify(first));
        const jumped = await diff.page.evaluate(() => window.vx.jumpToFirstOver());
        const worstBody = await diff.page.evaluate((k) => window.vx.worstEntity(k), jumped);
        check(first && jumped === first.index && worstBody === 's3', 'the jump shows that frame, the perturbed body coloured most', `${jumped} ${worstBody}`);
        check(diff.errors.length === 0, 'diff page: no console error', diff.errors.join(' | '));
    } finally {
        await browser.close();
    }
    // the page grows with the frames written: every frame of the same run, twice the frames
    run([path.join(scenes, 'ball_drop.json'), '-n', '120', '-q', '-o', 'ball_all.csv']);
    viewTrace([path.join(scenes, 'ball_drop.json'), 'ball_all.csv', '-o', 'ball_all.html']);
    sizes.push(fs.statSync(path.join(dir, 'ball_all.html')).size);
    // 60 more frames of 2 bodies: their poses (2 x 7 floats, base64) and frame numbers and times
    const perFrame = (sizes[1] - sizes[0]) / 60;
    check(perFrame > 2 * 7 * 4 && perFrame < 400, 'the page grows with the frames written, and only by them', `${perFrame} bytes a frame`);
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
}

main().catch((e) => { console.log(`FAILED - ${e.message}`); console.log(`${passed} passed, ${failed + 1} failed`); process.exit(1); });
