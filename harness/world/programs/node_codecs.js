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

function streamed(options, finalEmpty, chunks) {
  const decoder = new TextDecoder("utf-8", options);
  const more = (chunk) => decoder.decode(chunk, { stream: true });
  return fed(finalEmpty, chunks, more, (chunk) => decoder.decode(chunk));
}

function stringDecoded(finalEmpty, chunks) {
  const decoder = new StringDecoder("utf8");
  return fed(finalEmpty, chunks, (chunk) => decoder.write(chunk), (chunk) => decoder.end(chunk));
}

const incremental = (decode) => (fields) =>
  `ok ${hexOfText(decode(fields[0] === "1", fields.slice(1).map(bytesOf)))}`;
const decoding = (decode) => (fields) => `ok ${hexOfText(decode(bytesOf(fields[0])))}`;
const encoding = (encode) => (fields) => `ok ${hexOfBytes(encode(textOf(fields[0])))}`;

const MODES = {
  textdecoder: { replace: decoding((bytes) => new TextDecoder().decode(bytes)) },
  "textdecoder-fatal": {
    decode: decoding((bytes) => new TextDecoder("utf-8", { fatal: true }).decode(bytes)),
    incremental: incremental((finalEmpty, chunks) => streamed({ fatal: true }, finalEmpty, chunks)),
  },
  "textdecoder-ignorebom": {
    decode: decoding((bytes) => new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes)),
    replace: decoding((bytes) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes)),
  },
  "textdecoder-stream": { incremental: incremental((finalEmpty, chunks) => streamed({}, finalEmpty, chunks)) },
  buffer: {
    replace: decoding((bytes) => bytes.toString("utf8")),
    validate: (fields) => `ok ${isUtf8(bytesOf(fields[0]))}`,
    encode: encoding((text) => Buffer.from(text, "utf8")),
  },
  "string-decoder": { incremental: incremental(stringDecoded) },
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
    if (error.code === "ERR_ENCODING_INVALID_ENCODED_DATA") return `refused - ${error.message}`;
    return `crash ${String(error).replace(/\s+/g, " ")}`;
  }
}

// The mode of each incremental decoder, declared so that utf8cert holds it (PROTOCOL.md).
const DECLARED = { "textdecoder-fatal": "strict", "textdecoder-stream": "replace", "string-decoder": "replace" };
const declared = Object.hasOwn(DECLARED, process.argv[2]) ? ` incremental=${DECLARED[process.argv[2]]}` : "";
process.stdout.write(`utf8cert-protocol 1 ${Object.keys(mode).join(" ")} strings=utf-16${declared}\n`);
readline
  .createInterface({ input: process.stdin, crlfDelay: Infinity })
  .on("line", (line) => process.stdout.write(`${answer(line)}\n`));
