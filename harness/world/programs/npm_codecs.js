#!/usr/bin/env node
// UTF-8 codecs of npm packages over utf8cert-protocol 1 (harness/PROTOCOL.md), one per MODE:
//
//   node npm_codecs.js MODE NPM_PREFIX
//
// NPM_PREFIX is the directory whose node_modules holds the packages (package.json next to this
// file pins them; scripts/install-runtimes installs them there).
//
//   utf8                 decode: utf8.decode (on a binary string); encode: utf8.encode
//   protobufjs-utf8      replace: @protobufjs/utf8 read (it never refuses); encode: write
//   iconv-lite           replace, incremental (replace): iconv.decode, getDecoder("utf8");
//                        encode: iconv.encode
//   msgpack              replace: @msgpack/msgpack decode of a msgpack str (it never refuses);
//                        encode: encode, the str's header taken off
//   cbor-x               replace: cbor-x decode of a CBOR text string (it never refuses);
//                        encode: encode, the string's header taken off
//   text-encoding-utf-8  decode, replace, encode, incremental (strict): its TextDecoder (fatal
//                        for decode and incremental) and TextEncoder
//   text-encoding        the same for the text-encoding polyfill
//   fast-text-encoding   replace, encode: the polyfill's TextDecoder (no fatal mode, no
//                        streaming) and TextEncoder
//   buffer               replace: the browser Buffer polyfill's toString("utf8") (required as
//                        "buffer/", not Node's own); encode: its Buffer.from(string, "utf8")
//   stablelib-utf8       decode, encode: @stablelib/utf8 decode and encode
//   utf8-encoding        decode, replace, encode, incremental (strict): the utf8-encoding
//                        package's TextDecoder (fatal for decode and incremental), TextEncoder
//   is-utf8              validate: is-utf8(buffer)
//   string-decoder       replace, incremental (replace): the userland string_decoder's
//                        StringDecoder (required as "string_decoder/", not Node's own)
//   msgpackr             replace: msgpackr unpack of a msgpack str (its own JavaScript reader
//                        for short strings, Buffer's for long ones); encode: pack, header off
//   notepack             replace: notepack.io decode of a msgpack str; encode: encode
//   bson                 decode: bson's BSON.deserialize of {s: string} (validation.utf8 on, the
//                        default: it refuses ill-formed strings)
//   ws                   validate: ws's isValidUTF8 (lib/validation.js), what its Receiver asks
//                        of every text frame and close reason (its own loop below 24 bytes)
//   utf-8-validate       validate: utf-8-validate(buffer), its native addon (prebuilt)
//
// A JS string is UTF-16: the handshake says so (strings=utf-16).
"use strict";
const { createRequire } = require("node:module");
const path = require("node:path");
const readline = require("node:readline");

const EMPTY = "-";
const bytesOf = (field) => (field === EMPTY ? Buffer.alloc(0) : Buffer.from(field, "hex"));
const hexOfBytes = (bytes) => Buffer.from(bytes).toString("hex") || EMPTY;

// Eight hex digits per code point: a surrogate pair is one code point, a lone surrogate stays.
function hexOfText(text) {
  if (typeof text !== "string") throw new TypeError(`returned ${typeof text}, not a string`);
  let hex = "";
  for (const character of text) hex += character.codePointAt(0).toString(16).padStart(8, "0");
  return hex || EMPTY;
}

function textOf(field) {
  let text = "";
  for (let i = 0; field !== EMPTY && i < field.length; i += 8) {
    text += String.fromCodePoint(parseInt(field.slice(i, i + 8), 16));
  }
  return text;
}

// A length-prefixed string: `small` (or -1) + length for short ones, else a marker and a
// big-endian length of 1, 2 or 4 bytes (msgpack's str family, RFC 8949 §3.1 major type 3).
function framed(small, limit, markers, body) {
  const n = body.length;
  if (small >= 0 && n < limit) return Buffer.concat([Buffer.from([small + n]), body]);
  for (const [marker, size] of markers) {
    if (n < 2 ** (8 * size)) {
      const head = Buffer.alloc(1 + size);
      head[0] = marker;
      head.writeUIntBE(n, 1, size);
      return Buffer.concat([head, body]);
    }
  }
  throw new RangeError("too long");
}

function unframed(small, limit, markers, document, name) {
  const bytes = Buffer.from(document);
  const first = bytes[0];
  let start = 1;
  let length = first - small;
  if (!(small >= 0 && first >= small && first < small + limit)) {
    const found = markers.find(([marker]) => marker === first);
    if (found === undefined) throw new Error(`not a ${name}: starts with ${first}`);
    start = 1 + found[1];
    length = bytes.readUIntBE(1, found[1]);
  }
  if (bytes.length !== start + length) throw new Error(`not a ${name}: wrong length`);
  return bytes.subarray(start);
}

const MSGPACK = [0xa0, 32, [[0xd9, 1], [0xda, 2], [0xdb, 4]], "msgpack str"];
const CBOR = [0x60, 24, [[0x78, 1], [0x79, 2], [0x7a, 4]], "CBOR text string"];
const wrap = (form, bytes) => framed(form[0], form[1], form[2], bytes);
const unwrap = (form, document) => unframed(form[0], form[1], form[2], document, form[3]);

// Feeds every chunk but the last with more to come, then the last (or, when finalEmpty, an
// empty chunk) as the end.
function fed(finalEmpty, chunks, more, end) {
  let text = "";
  const last = finalEmpty || chunks.length === 0 ? null : chunks[chunks.length - 1];
  const early = last === null ? chunks : chunks.slice(0, -1);
  for (const chunk of early) text += more(chunk);
  return text + end(last === null ? Buffer.alloc(0) : last);
}

function whatwg(api, fatalSupported) {
  const mode = {
    replace: (bytes) => new api.TextDecoder("utf-8").decode(bytes),
    encode: (text) => new api.TextEncoder().encode(text),
  };
  if (fatalSupported) {
    mode.decode = (bytes) => new api.TextDecoder("utf-8", { fatal: true }).decode(bytes);
    mode.incremental = (finalEmpty, chunks) => {
      const decoder = new api.TextDecoder("utf-8", { fatal: true });
      const more = (chunk) => decoder.decode(chunk, { stream: true });
      return fed(finalEmpty, chunks, more, (chunk) => decoder.decode(chunk));
    };
    mode.declared = "strict";
  }
  return mode;
}

// Each mode: the packages it needs, and (given them) its capabilities; `refuses(error)` says
// which errors are the library's refusals of ill-formed input (the rest are crashes).
const MODES = {
  utf8: {
    packages: ["utf8"],
    make: ([utf8]) => ({
      decode: (bytes) => utf8.decode(bytes.toString("latin1")),
      encode: (text) => Buffer.from(utf8.encode(text), "latin1"),
    }),
    refuses: (error) => error.constructor === Error,
  },
  "protobufjs-utf8": {
    packages: ["@protobufjs/utf8"],
    make: ([utf8]) => ({
      replace: (bytes) => utf8.read(bytes, 0, bytes.length),
      encode: (text) => {
        const buffer = Buffer.alloc(utf8.length(text));
        return buffer.subarray(0, utf8.write(text, buffer, 0));
      },
    }),
  },
  "iconv-lite": {
    packages: ["iconv-lite"],
    make: ([iconv]) => ({
      replace: (bytes) => iconv.decode(bytes, "utf8"),
      encode: (text) => iconv.encode(text, "utf8"),
      incremental: (finalEmpty, chunks) => {
        const decoder = iconv.getDecoder("utf8");
        const more = (chunk) => decoder.write(chunk);
        return fed(finalEmpty, chunks, more, (chunk) => decoder.write(chunk) + (decoder.end() || ""));
      },
      declared: "replace",
    }),
  },
  msgpack: {
    packages: ["@msgpack/msgpack"],
    make: ([msgpack]) => ({
      replace: (bytes) => msgpack.decode(wrap(MSGPACK, bytes)),
      encode: (text) => unwrap(MSGPACK, msgpack.encode(text)),
    }),
  },
  "cbor-x": {
    packages: ["cbor-x"],
    make: ([cbor]) => ({
      replace: (bytes) => cbor.decode(wrap(CBOR, bytes)),
      encode: (text) => unwrap(CBOR, cbor.encode(text)),
    }),
  },
  "text-encoding-utf-8": {
    packages: ["text-encoding-utf-8"],
    make: ([api]) => whatwg(api, true),
    refuses: (error) => error instanceof TypeError && /Decoder error/.test(error.message),
  },
  "text-encoding": {
    packages: ["text-encoding"],
    make: ([api]) => whatwg(api, true),
    refuses: (error) => error instanceof TypeError && /Decoder error|not valid for encoding/.test(error.message),
  },
  buffer: {
    packages: ["buffer/"],
    make: ([polyfill]) => ({
      replace: (bytes) => polyfill.Buffer.from(bytes).toString("utf8"),
      encode: (text) => polyfill.Buffer.from(text, "utf8"),
    }),
  },
  "stablelib-utf8": {
    packages: ["@stablelib/utf8"],
    make: ([utf8]) => ({ decode: (bytes) => utf8.decode(bytes), encode: (text) => utf8.encode(text) }),
    refuses: (error) => error.constructor === Error && /^utf8: /.test(error.message),
  },
  "utf8-encoding": {
    packages: ["utf8-encoding"],
    make: ([api]) => whatwg(api, true),
    refuses: (error) => error instanceof TypeError && /invalid input/.test(error.message),
  },
  "is-utf8": {
    packages: ["is-utf8"],
    make: ([isUtf8]) => ({ validate: (bytes) => isUtf8(bytes) }),
  },
  "string-decoder": {
    // The userland port of Node's string_decoder (required as "string_decoder/", not Node's own).
    packages: ["string_decoder/"],
    make: ([port]) => ({
      replace: (bytes) => {
        const decoder = new port.StringDecoder("utf8");
        return decoder.write(bytes) + decoder.end();
      },
      incremental: (finalEmpty, chunks) => {
        const decoder = new port.StringDecoder("utf8");
        const more = (chunk) => decoder.write(chunk);
        return fed(finalEmpty, chunks, more, (chunk) => decoder.write(chunk) + decoder.end());
      },
      declared: "replace",
    }),
  },
  msgpackr: {
    packages: ["msgpackr"],
    make: ([msgpackr]) => ({
      replace: (bytes) => msgpackr.unpack(wrap(MSGPACK, bytes)),
      encode: (text) => unwrap(MSGPACK, msgpackr.pack(text)),
    }),
  },
  notepack: {
    packages: ["notepack.io"],
    make: ([notepack]) => ({
      replace: (bytes) => notepack.decode(wrap(MSGPACK, bytes)),
      encode: (text) => unwrap(MSGPACK, notepack.encode(text)),
    }),
  },
  bson: {
    packages: ["bson"],
    // A document of one string element "s" (bsonspec.org: int32 size, 0x02, "s\0", int32
    // length + 1, the bytes, 0x00, then the document's 0x00).
    make: ([bson]) => ({
      decode: (bytes) => {
        const size = 4 + 1 + 2 + 4 + bytes.length + 1 + 1;
        const document = Buffer.alloc(size);
        document.writeInt32LE(size, 0);
        document.write("\x02s\x00", 4, "latin1");
        document.writeInt32LE(bytes.length + 1, 7);
        bytes.copy(document, 11);
        const value = bson.BSON.deserialize(document).s;
        return value;
      },
    }),
    refuses: (error) => error && error.name === "BSONError" && /UTF-8|utf8/i.test(error.message),
  },
  ws: {
    // Not among ws's exports: its file, from the package's directory.
    packages: ["./node_modules/ws/lib/validation.js"],
    make: ([validation]) => ({ validate: (bytes) => validation.isValidUTF8(bytes) }),
  },
  "utf-8-validate": {
    packages: ["utf-8-validate"],
    make: ([isValid]) => ({ validate: (bytes) => isValid(bytes) }),
  },
  "fast-text-encoding": {
    packages: ["fast-text-encoding"],
    // The polyfill installs itself only where TextDecoder is missing, as on an old browser.
    make: ([load]) => {
      delete globalThis.TextDecoder;
      delete globalThis.TextEncoder;
      load();
      return whatwg(globalThis, false);
    },
    lazy: true,
  },
};

const [name, prefix] = process.argv.slice(2);
const spec = Object.hasOwn(MODES, name) ? MODES[name] : undefined;
if (spec === undefined || prefix === undefined) {
  process.stderr.write(`usage: node npm_codecs.js MODE NPM_PREFIX (MODE: ${Object.keys(MODES).join(", ")})\n`);
  process.exit(2);
}
const requireThere = createRequire(path.join(path.resolve(prefix), "package.json"));
let mode;
try {
  const loaded = spec.packages.map((pkg) => (spec.lazy ? () => requireThere(pkg) : requireThere(pkg)));
  mode = spec.make(loaded);
} catch (error) {
  process.stderr.write(`cannot load ${spec.packages.join(", ")} from ${prefix}: ${error.message}\n`);
  process.exit(1);
}
const refuses = spec.refuses || (() => false);

const HANDLERS = {
  decode: (fields) => `ok ${hexOfText(mode.decode(bytesOf(fields[0])))}`,
  validate: (fields) => `ok ${mode.validate(bytesOf(fields[0])) === true}`,
  replace: (fields) => `ok ${hexOfText(mode.replace(bytesOf(fields[0])))}`,
  encode: (fields) => `ok ${hexOfBytes(mode.encode(textOf(fields[0])))}`,
  incremental: (fields) => `ok ${hexOfText(mode.incremental(fields[0] === "1", fields.slice(1).map(bytesOf)))}`,
};
const offered = Object.keys(HANDLERS).filter((operation) => mode[operation] !== undefined);

function answer(line) {
  const [operation, ...fields] = line.split(" ");
  if (!offered.includes(operation)) return `crash unknown request ${operation}`;
  try {
    return HANDLERS[operation](fields);
  } catch (error) {
    const message = String(error && error.message).replace(/\s+/g, " ");
    if (refuses(error)) return `refused - ${message}`;
    return `crash ${String(error).replace(/\s+/g, " ")}`;
  }
}

const declared = mode.declared ? ` incremental=${mode.declared}` : "";
process.stdout.write(`utf8cert-protocol 1 ${offered.join(" ")} strings=utf-16${declared}\n`);
readline
  .createInterface({ input: process.stdin, crlfDelay: Infinity })
  .on("line", (line) => process.stdout.write(`${answer(line)}\n`));
