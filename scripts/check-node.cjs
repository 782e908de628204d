'use strict';
// Runs before start and test on whatever Node the machine has (`npm ci` itself refuses an old Node
// at once: engine-strict in .npmrc), so it is CommonJS and uses nothing a very old Node lacks: an
// old Node should get one line naming what to install, not a native module's stack trace.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const engines = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).engines.node;

/** Whether `version` ("24.11.0") meets one alternative of `engines`: `^22.19.0` (that major) or `>=24.11.0`. */
function meets(version, alternative) {
  const match = /^\s*(\^|>=)\s*(\d+)\.(\d+)(?:\.(\d+))?\s*$/.exec(alternative);
  if (!match) return false;
  const wanted = [Number(match[2]), Number(match[3]), Number(match[4] || 0)];
  const have = version.split('.').map(Number);
  if (match[1] === '^' && have[0] !== wanted[0]) return false;
  for (let i = 0; i < 3; i++) if (have[i] !== wanted[i]) return have[i] > wanted[i];
  return true;
}

if (!engines.split('||').some((alternative) => meets(process.versions.node, alternative))) {
  console.error(
    `Kruh needs Node.js ${engines} (Node 24 LTS is what it is tested on); this is ${process.version}. ` +
      'Install Node 24 (nvm install 24, or see "Node.js version" in README.md) and run the command again.',
  );
  process.exit(1);
}
