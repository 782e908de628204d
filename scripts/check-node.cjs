'use strict';
// Runs before install, start and test on whatever Node the machine has, so it is CommonJS and
// uses nothing a very old Node lacks: an old Node should get one line naming what to install,
// not a native module's stack trace.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const engines = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).engines.node;
const wanted = /(\d+)\.(\d+)/.exec(engines);
const [major, minor] = process.versions.node.split('.').map(Number);
if (wanted && (major < Number(wanted[1]) || (major === Number(wanted[1]) && minor < Number(wanted[2])))) {
  console.error(
    `Kruh needs Node.js ${wanted[1]}.${wanted[2]} or later (Node 24 LTS is what it is tested on); this is ${process.version}. ` +
      'Install Node 24 (nvm install 24, or see "Node 24" in README.md) and run the command again.',
  );
  process.exit(1);
}
