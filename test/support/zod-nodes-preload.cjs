// Preloaded (node --require) into a gateway child: counts the zod schema nodes
// the process builds, through zod's own hook that runs once per constructed
// schema, and writes how many existed when the gateway started listening and
// how many at exit to the file named by CLAW_TEST_ZOD_NODES.
const { writeFileSync } = require('node:fs');
const http = require('node:http');

let built = 0;
let atListening;
globalThis.__zod_globalConfig = { postProcessor: () => (built += 1) };
const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (...args) {
  this.once('listening', () => (atListening ??= built));
  return listen.apply(this, args);
};
process.on('exit', () => writeFileSync(process.env.CLAW_TEST_ZOD_NODES, JSON.stringify({ atListening, atExit: built })));
