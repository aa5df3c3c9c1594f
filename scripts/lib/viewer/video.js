// --video: the replay frame by frame through headless chromium, then ffmpeg
// into an MP4 (H.264) or a GIF, at the run's own pace up to 30 frames a second.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { launch, openViewer } = require('./browser');

async function renderVideo(htmlPath, out, trace, dir) {
    const span = trace.times.length > 1 ? (trace.times[trace.times.length - 1] - trace.times[0]) / (trace.times.length - 1) : 1;
    const step = Math.max(1, Math.round(1 / 30 / span)); // written frames per video frame
    const fps = Math.max(1, Math.min(30, Math.round(1 / (span * step))));
    const browser = await launch();
    try {
        const { page, errors } = await openViewer(browser, htmlPath, { width: 800, height: 500 });
        let n = 0;
        for (let k = 0; k < trace.frames.length; k += step) {
            await page.evaluate((i) => window.vx.setFrame(i), k);
            await page.screenshot({ path: path.join(dir, `f${String(n++).padStart(6, '0')}.png`) });
        }
        if (errors.length) throw new Error(`the page reported: ${errors[0]}`);
    } finally {
        await browser.close();
    }
    const input = ['-y', '-loglevel', 'error', '-framerate', String(fps), '-i', path.join(dir, 'f%06d.png')];
    const temp = `${out}.tmp-${process.pid}${path.extname(out)}`;
    const args = out.endsWith('.gif')
        ? [...input, '-vf', 'scale=480:-1:flags=lanczos,split[a][b];[a]palettegen=max_colors=64[p];[b][p]paletteuse', temp]
        : [...input, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-crf', '28', '-movflags', '+faststart', temp];
    const r = spawnSync('ffmpeg', args, { encoding: 'utf8' });
    if (r.error || r.status !== 0) {
        fs.rmSync(temp, { force: true });
        throw new Error(`ffmpeg failed: ${(r.error && r.error.code) || (r.stderr || '').trim().split('\n')[0]}`);
    }
    fs.renameSync(temp, out);
}

module.exports = { renderVideo };
