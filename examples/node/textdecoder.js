#!/usr/bin/env node
// Node.js's WHATWG TextDecoder and TextEncoder, and buffer.isUtf8, over utf8cert-protocol 2
// (harness/PROTOCOL.md):  utf8cert check "cmd:node examples/node/textdecoder.js"
//
// Version 2: each request starts with an id, and its answer starts with the same id; requests
// arrive several at a time, and are answered in order.
//
// decode: TextDecoder with fatal: true      replace: TextDecoder's default (U+FFFD)
// validate: buffer.isUtf8                   encode: TextEncoder
// incremental: TextDecoder with fatal: true, fed with {stream: true} until the final chunk
// Every decoder keeps the default ignoreBOM: false, so a leading EF BB BF is dropped, as the
// WHATWG Encoding Standard says: utf8cert reports that as a signature difference.
// A JS string is UTF-16, and the handshake says so (strings=utf-16): utf8cert then never asks to
// encode what no JS string holds (a value above U+10FFFF; a high surrogate followed by a low one,
// which a JS string holds as the character they encode).
"use strict";
const { isUtf8 } = require("node:buffer");
const readline = require("node:readline");

const EMPTY = "-";
const bytesOf = (field) => (field === EMPTY ? Buffer.alloc(0) : Buffer.from(field, "hex"));
const hexOfBytes = (bytes) => Buffer.from(bytes).toString("hex") || EMPTY;

// Text travels as eight hex digits per code point (UTF-32BE); a surrogate pair is one code
// point, a lone surrogate stays one value.
function hexOfText(text) {
  const out = Buffer.allocUnsafe(4 * text.length);
  let size = 0;
  for (let i = 0; i < text.length; i++) {
    let value = text.charCodeAt(i);
    const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
    if (value >= 0xd800 && value <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      value = 0x10000 + ((value - 0xd800) << 10) + (next - 0xdc00);
      i++;
    }
    size = out.writeUInt32BE(value, size);
  }
  return size ? out.toString("hex", 0, size) : EMPTY;
}

function codePointsOf(field) {
  const values = [];
  for (let i = 0; field !== EMPTY && i < field.length; i += 8) {
    values.push(parseInt(field.slice(i, i + 8), 16));
  }
  return values;
}

const textOf = (values) => values.map((value) => String.fromCodePoint(value)).join("");

function incremental(finalEmpty, chunks) {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let text = "";
  chunks.forEach((chunk, i) => {
    const last = i === chunks.length - 1 && !finalEmpty;
    text += decoder.decode(chunk, { stream: !last });
  });
  if (finalEmpty || chunks.length === 0) text += decoder.decode(new Uint8Array(0));
  return text;
}

function answer(line) {
  const [operation, ...fields] = line.split(" ");
  try {
    switch (operation) {
      case "decode":
        return `ok ${hexOfText(new TextDecoder("utf-8", { fatal: true }).decode(bytesOf(fields[0])))}`;
      case "replace":
        return `ok ${hexOfText(new TextDecoder("utf-8").decode(bytesOf(fields[0])))}`;
      case "validate":
        return `ok ${isUtf8(bytesOf(fields[0]))}`;
      case "encode":
        return `ok ${hexOfBytes(new TextEncoder().encode(textOf(codePointsOf(fields[0]))))}`;
      case "incremental":
        return `ok ${hexOfText(incremental(fields[0] === "1", fields.slice(1).map(bytesOf)))}`;
      default:
        return `crash unknown request ${operation}`;
    }
  } catch (error) {
    // TextDecoder's fatal mode throws this TypeError on ill-formed input; it gives no offset.
    if (error.code === "ERR_ENCODING_INVALID_ENCODED_DATA") return `refused - ${error.message}`;
    return `crash ${String(error).replace(/\s+/g, " ")}`;
  }
}

// Answers are gathered while requests keep coming, and written together once the requests
// read so far are answered: one write for many answers.
let pending = [];
function flush() {
  process.stdout.write(pending.join(""));
  pending = [];
}

// incremental=strict: the incremental decoder refuses ill-formed input, as decode does.
process.stdout.write(
  "utf8cert-protocol 2 decode replace validate encode incremental strings=utf-16 incremental=strict\n",
);
readline.createInterface({ input: process.stdin, crlfDelay: Infinity }).on("line", (line) => {
  const space = line.indexOf(" ");
  if (pending.length === 0) setImmediate(flush);
  pending.push(`${line.slice(0, space)} ${answer(line.slice(space + 1))}\n`);
});
