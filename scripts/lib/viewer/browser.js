// Debian's chromium, headless, driven by playwright-core (pinned in
// package.json; it downloads no browser): for --video and the browser tests.
// WebGL runs on SwiftShader (no GPU needed); the background services that
// would reach for the network are off.
'use strict';
const path = require('path');

const CHROMIUM = process.env.VX_CHROMIUM || '/usr/bin/chromium';

async function launch() {
    const { chromium } = require(path.join(__dirname, '..', '..', '..', 'node_modules', 'playwright-core'));
    return chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
               '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
               '--disable-quic'],
    });
}

// Opens the page at file:// and waits for the viewer to be ready.
async function openViewer(browser, htmlPath, size = { width: 960, height: 600 }) {
    const page = await browser.newPage({ viewport: size });
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) errors.push(`fetched ${r.url()}`); });
    await page.goto(`file://${path.resolve(htmlPath)}`);
    await page.waitForFunction(() => window.vx && window.vx.ready, null, { timeout: 30000 });
    return { page, errors };
}

module.exports = { launch, openViewer, CHROMIUM };
