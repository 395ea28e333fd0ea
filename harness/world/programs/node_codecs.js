#!/usr/bin/env node
// Node.js's own UTF-8 codecs over utf8cert-protocol 1 (harness/PROTOCOL.md), one per MODE:
//
//   node node_codecs.js MODE
//
//   textdecoder            replace: new TextDecoder() (U+FFFD, a leading EF BB BF dropped)
//   textdecoder-fatal      decode, incremental: TextDecoder with fatal: true ({stream: true}
//                          until the final chunk); it gives no error offset (refused -)
//   textdecoder-ignorebom  decode, replace: TextDecoder with ignoreBOM: true (fatal for decode)
//   textdecoder-stream     incremental: the default TextDecoder fed with {stream: true}
//   buffer                 replace: buf.toString("utf8"); validate: buffer.isUtf8;
//                          encode: Buffer.from(string, "utf8")
//   string-decoder         incremental: string_decoder's StringDecoder, write() then end()
//
// The incremental decoders also answer `reuse` requests (one decoder object, stream after
// stream; handshake word reuse=yes).
//   textencoder            encode: TextEncoder
//
// A JS string is UTF-16: the handshake says so (strings=utf-16), and utf8cert then never asks
// to encode what no JS string holds (a value above U+10FFFF; a high surrogate followed by a low
// one, which a JS string holds as the character they encode).
"use strict";
const { isUtf8 } = require("node:buffer");
const readline = require("node:readline");
const { StringDecoder } = require("node:string_decoder");

const EMPTY = "-";
const bytesOf = (field) => (field === EMPTY ? Buffer.alloc(0) : Buffer.from(field, "hex"));
const hexOfBytes = (bytes) => Buffer.from(bytes).toString("hex") || EMPTY;

// Text travels as eight hex digits per code point; `for...of` keeps a lone surrogate whole.
function hexOfText(text) {
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

// Feeds every chunk but the last with more to come, then the last (or, when finalEmpty, an
// empty chunk) as the end: `more(chunk)` and `end(chunk)` return the text they complete.
function fed(finalEmpty, chunks, more, end) {
  let text = "";
  const last = finalEmpty || chunks.length === 0 ? null : chunks[chunks.length - 1];
  const early = last === null ? chunks : chunks.slice(0, -1);
  for (const chunk of early) text += more(chunk);
  return text + end(last === null ? Buffer.alloc(0) : last);
}

// An incremental decoder as the protocol feeds it: more(chunk) and end(chunk) return the text
// they complete; reset() makes it as new (a TextDecoder has no reset: a decode() call without
// {stream: true} ends the stream, and the next call starts another; StringDecoder: end()).
function textDecoder(options) {
  const decoder = new TextDecoder("utf-8", options);
  const more = (chunk) => decoder.decode(chunk, { stream: true });
  const end = (chunk) => decoder.decode(chunk);
  return { more, end, reset: () => refusing(() => decoder.decode()) };
}

function stringDecoder() {
  const decoder = new StringDecoder("utf8");
  return { more: (chunk) => decoder.write(chunk), end: (chunk) => decoder.end(chunk), reset: () => decoder.end() };
}

const refusal = (error) => error.code === "ERR_ENCODING_INVALID_ENCODED_DATA";

// Calls `act`; a refusal (fatal mode's TypeError) is dropped: the caller asks what comes after.
function refusing(act) {
  try {
    act();
  } catch (error) {
    if (!refusal(error)) throw error;
  }
}

const incremental = (make) => (fields) => {
  const decoder = make();
  const text = fed(fields[0] === "1", fields.slice(1).map(bytesOf), decoder.more, decoder.end);
  return `ok ${hexOfText(text)}`;
};

// `reuse F BYTES... next|reset ... F BYTES...` (PROTOCOL.md): one decoder fed each earlier
// stream (F 0: ended; -: left open), reset() after it when asked, then the last as `incremental`.
const reuse = (make) => (fields) => {
  const decoder = make();
  let group = [];
  for (const field of fields) {
    if (field !== "next" && field !== "reset") {
      group.push(field);
      continue;
    }
    const [flag, ...chunks] = group;
    try {
      if (flag === "-") refusing(() => chunks.map(bytesOf).forEach(decoder.more));
      else refusing(() => fed(false, chunks.map(bytesOf), decoder.more, decoder.end));
      if (field === "reset") decoder.reset();
    } catch (error) {
      return `inapplicable failed on the earlier stream: ${String(error).replace(/\s+/g, " ")}`;
    }
    group = [];
  }
  return incremental(() => decoder)(group);
};
const decoding = (decode) => (fields) => `ok ${hexOfText(decode(bytesOf(fields[0])))}`;
const encoding = (encode) => (fields) => `ok ${hexOfBytes(encode(textOf(fields[0])))}`;

const MODES = {
  textdecoder: { replace: decoding((bytes) => new TextDecoder().decode(bytes)) },
  "textdecoder-fatal": {
    decode: decoding((bytes) => new TextDecoder("utf-8", { fatal: true }).decode(bytes)),
    incremental: incremental(() => textDecoder({ fatal: true })),
    reuse: reuse(() => textDecoder({ fatal: true })),
  },
  "textdecoder-ignorebom": {
    decode: decoding((bytes) => new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes)),
    replace: decoding((bytes) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes)),
  },
  "textdecoder-stream": { incremental: incremental(() => textDecoder({})), reuse: reuse(() => textDecoder({})) },
  buffer: {
    replace: decoding((bytes) => bytes.toString("utf8")),
    validate: (fields) => `ok ${isUtf8(bytesOf(fields[0]))}`,
    encode: encoding((text) => Buffer.from(text, "utf8")),
  },
  "string-decoder": { incremental: incremental(stringDecoder), reuse: reuse(stringDecoder) },
  textencoder: { encode: encoding((text) => new TextEncoder().encode(text)) },
};

const mode = MODES[process.argv[2]];
if (mode === undefined) {
  process.stderr.write(`usage: node node_codecs.js MODE (one of: ${Object.keys(MODES).join(", ")})\n`);
  process.exit(2);
}

function answer(line) {
  const [operation, ...fields] = line.split(" ");
  const handler = Object.hasOwn(mode, operation) ? mode[operation] : undefined;
  if (handler === undefined) return `crash unknown request ${operation}`;
  try {
    return handler(fields);
  } catch (error) {
    // TextDecoder's fatal mode throws this TypeError on ill-formed input; it gives no offset.
    if (refusal(error)) return `refused - ${error.message}`;
    return `crash ${String(error).replace(/\s+/g, " ")}`;
  }
}

// The mode of each incremental decoder, declared so that utf8cert holds it (PROTOCOL.md).
const DECLARED = { "textdecoder-fatal": "strict", "textdecoder-stream": "replace", "string-decoder": "replace" };
const declared = Object.hasOwn(DECLARED, process.argv[2]) ? ` incremental=${DECLARED[process.argv[2]]}` : "";
const offered = Object.keys(mode).filter((name) => name !== "reuse");
const reused = Object.hasOwn(mode, "reuse") ? " reuse=yes" : ""; // it answers `reuse` requests
process.stdout.write(`utf8cert-protocol 1 ${offered.join(" ")} strings=utf-16${declared}${reused}\n`);
readline
  .createInterface({ input: process.stdin, crlfDelay: Infinity })
  .on("line", (line) => process.stdout.write(`${answer(line)}\n`));
