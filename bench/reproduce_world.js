// Direct reproducers of the world's npm findings (issue 43): each package called as its README
// shows, with none of utf8cert's code. Run by bench/reproduce_world.py:
//
//   node reproduce_world.js MODE NPM_PREFIX
//
// reads one input a line on stdin (code points, 8 hex digits each: a JS string is built from
// them, a lone surrogate kept) and writes `ok HEX`, the UTF-8 the package wrote for the string
// (the msgpack str's header taken off), or `refused` when it throws.
"use strict";
const { createRequire } = require("node:module");
const path = require("node:path");
const readline = require("node:readline");

// REPRO_FILL=HH: every buffer Buffer.allocUnsafe or allocUnsafeSlow hands out starts as the byte
// HH, so that bytes a package returns without having written them read as HH. An input whose
// answer did not match is run with 00 and with ff (bench/reproduce_world.py): an answer that
// changes holds memory the package never wrote, which is why it varied.
if (process.env.REPRO_FILL) {
  const fill = parseInt(process.env.REPRO_FILL, 16);
  for (const name of ["allocUnsafe", "allocUnsafeSlow"]) {
    const unfilled = Buffer[name];
    Buffer[name] = (size) => unfilled(size).fill(fill);
  }
}

const [mode, prefix] = process.argv.slice(2);
const requireThere = createRequire(path.join(path.resolve(prefix), "package.json"));
const pack = { "msgpackr-encode": requireThere("msgpackr").pack, "notepack-encode": requireThere("notepack.io").encode }[mode];

// A msgpack str's body: fixstr A0..BF, str8 D9, str16 DA, str32 DB.
function body(packed) {
  const first = packed[0];
  const head = first >= 0xa0 && first <= 0xbf ? 1 : first === 0xd9 ? 2 : first === 0xda ? 3 : 5;
  return Buffer.from(packed).subarray(head);
}

readline.createInterface({ input: process.stdin, crlfDelay: Infinity }).on("line", (line) => {
  let text = "";
  for (let i = 0; line !== "-" && i < line.length; i += 8) text += String.fromCodePoint(parseInt(line.slice(i, i + 8), 16));
  try {
    process.stdout.write(`ok ${body(pack(text)).toString("hex") || "-"}\n`);
  } catch (error) {
    process.stdout.write("refused\n");
  }
});
