#!/usr/bin/env node
// The Khronos glTF Validator (npm gltf-validator, pinned in package.json)
// over each file named: a line per file with its counts, the errors and
// warnings listed; exit 1 when any file has an error or a warning.
'use strict';
const fs = require('fs');
const path = require('path');
const validator = require(path.join(__dirname, '..', '..', 'node_modules', 'gltf-validator'));

async function main(files) {
    let bad = 0;
    for (const file of files) {
        const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
            uri: path.basename(file), maxIssues: 50 });
        const i = report.issues;
        console.log(`${file}: ${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos, ${i.numHints} hints`);
        for (const m of i.messages) {
            if (m.severity <= 1) console.log(`  ${m.severity === 0 ? 'error' : 'warning'} ${m.code} ${m.pointer || ''}: ${m.message}`);
        }
        if (i.numErrors > 0 || i.numWarnings > 0) bad++;
    }
    process.exit(bad ? 1 : 0);
}

main(process.argv.slice(2)).catch((e) => { console.error(`gltf_validate: ${e}`); process.exit(2); });
