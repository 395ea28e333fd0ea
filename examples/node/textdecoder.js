#!/usr/bin/env node
// Node.js's WHATWG TextDecoder and TextEncoder, and buffer.isUtf8, over utf8cert-protocol 1
// (harness/PROTOCOL.md):  utf8cert check "cmd:node examples/node/textdecoder.js"
//
// decode: TextDecoder with fatal: true      replace: TextDecoder's default (U+FFFD)
// validate: buffer.isUtf8                   encode: TextEncoder
// incremental: TextDecoder with fatal: true, fed with {stream: true} until the final chunk
// Every decoder keeps the default ignoreBOM: false, so a leading EF BB BF is dropped, as the
// WHATWG Encoding Standard says: utf8cert reports that as a signature difference.
"use strict";
const { isUtf8 } = require("node:buffer");
const readline = require("node:readline");

const EMPTY = "-";
const bytesOf = (field) => (field === EMPTY ? Buffer.alloc(0) : Buffer.from(field, "hex"));
const hexOfBytes = (bytes) => Buffer.from(bytes).toString("hex") || EMPTY;

// Text travels as eight hex digits per code point; `for...of` keeps a lone surrogate whole.
function hexOfText(text) {
  let hex = "";
  for (const character of text) hex += character.codePointAt(0).toString(16).padStart(8, "0");
  return hex || EMPTY;
}

function codePointsOf(field) {
  const values = [];
  for (let i = 0; field !== EMPTY && i < field.length; i += 8) {
    values.push(parseInt(field.slice(i, i + 8), 16));
  }
  return values;
}

// A JS string is UTF-16: it cannot hold a value above U+10FFFF, nor keep a high surrogate
// followed by a low one apart from the character that pair encodes.
function textOf(values) {
  let text = "";
  for (let i = 0; i < values.length; i++) {
    if (values[i] > 0x10ffff) throw new RangeError(`U+${values[i].toString(16)} is not in a JS string`);
    if (values[i] >= 0xd800 && values[i] <= 0xdbff && values[i + 1] >= 0xdc00 && values[i + 1] <= 0xdfff) {
      throw new RangeError("a JS string cannot keep a surrogate pair apart from its character");
    }
    text += String.fromCodePoint(values[i]);
  }
  return text;
}

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
      case "encode": {
        let text;
        try {
          text = textOf(codePointsOf(fields[0]));
        } catch (error) {
          return `inapplicable ${error.message}`;
        }
        return `ok ${hexOfBytes(new TextEncoder().encode(text))}`;
      }
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

process.stdout.write("utf8cert-protocol 1 decode replace validate encode incremental\n");
readline
  .createInterface({ input: process.stdin, crlfDelay: Infinity })
  .on("line", (line) => process.stdout.write(`${answer(line)}\n`));
