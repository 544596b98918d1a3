// Preloaded (node --require) into a gateway child: what its start costs
// before it listens. Counts the zod schema nodes the process builds, through
// zod's own hook that runs once per constructed schema, and notes the node
// built-ins loaded when it asks to listen; writes both, and the node count
// at exit, to the file named by CLAW_TEST_START_FOOTPRINT.
const { writeFileSync } = require('node:fs');
const http = require('node:http');

let built = 0;
let atListening;
let builtins;
globalThis.__zod_globalConfig = { postProcessor: () => (built += 1) };
const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (...args) {
  // Noted at the call: listening itself loads cluster, and with it child_process.
  builtins ??= process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule ')).map((entry) => entry.slice('NativeModule '.length));
  this.once('listening', () => (atListening ??= built));
  return listen.apply(this, args);
};
process.on('exit', () => writeFileSync(process.env.CLAW_TEST_START_FOOTPRINT, JSON.stringify({ atListening, atExit: built, builtins })));
