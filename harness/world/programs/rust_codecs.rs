// Rust's standard library UTF-8 decoding over utf8cert-protocol 1 (harness/PROTOCOL.md), one
// per MODE (built with plain rustc, no crates):
//
//   rust_codecs MODE
//
//   from-utf8        decode: String::from_utf8 (refused at Utf8Error::valid_up_to, the error's
//                    end sent as `end=`: valid_up_to plus error_len, or the input's end when
//                    error_len is None, an input that ends inside a sequence);
//                    validate: std::str::from_utf8(..).is_ok()
//   from-utf8-lossy  replace: String::from_utf8_lossy
//   into-bytes       encode: each code point made a char (char::from_u32, which refuses a
//                    surrogate and a value above U+10FFFF: no String can hold them), pushed
//                    onto a String, then String::into_bytes
//   utf8-chunks      replace: <[u8]>::utf8_chunks, each chunk's valid() then one U+FFFD for a
//                    non-empty invalid(); validate: no chunk has an invalid() part
//   read-to-string   incremental (strict): std::io::Read::read_to_string from a reader that
//                    hands out one chunk per read (an InvalidData error is a refusal, no offset)
use std::io::{self, BufRead, Read, Write};
use std::process::ExitCode;

const EMPTY: &str = "-";

fn bytes_of(field: &str) -> Result<Vec<u8>, String> {
    if field == EMPTY {
        return Ok(Vec::new());
    }
    if field.len() % 2 != 0 {
        return Err(format!("odd number of hex digits in {field:.20}"));
    }
    (0..field.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&field[i..i + 2], 16).map_err(|e| e.to_string()))
        .collect()
}

fn hex_of_text(text: &str) -> String {
    if text.is_empty() {
        return EMPTY.to_string();
    }
    text.chars().map(|c| format!("{:08x}", c as u32)).collect()
}

fn into_bytes(field: &str) -> String {
    let mut text = String::new();
    let digits = if field == EMPTY { "" } else { field };
    for (index, start) in (0..digits.len()).step_by(8).enumerate() {
        let Some(Ok(value)) = digits.get(start..start + 8).map(|d| u32::from_str_radix(d, 16))
        else {
            return format!("crash bad request: {field:.20}");
        };
        match char::from_u32(value) {
            Some(character) => text.push(character),
            None => return format!("refused {index} char::from_u32({value:#x}) is None"),
        }
    }
    let bytes = text.into_bytes();
    if bytes.is_empty() {
        return format!("ok {EMPTY}");
    }
    format!("ok {}", bytes.iter().map(|b| format!("{b:02x}")).collect::<String>())
}

/// A reader that hands out its chunks one per read, so that read_to_string meets every cut.
struct Chunks(Vec<Vec<u8>>);

impl Read for Chunks {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        while self.0.first().is_some_and(|chunk| chunk.is_empty()) {
            self.0.remove(0);
        }
        let Some(chunk) = self.0.first_mut() else { return Ok(0) };
        let n = chunk.len().min(buffer.len());
        buffer[..n].copy_from_slice(&chunk[..n]);
        chunk.drain(..n);
        Ok(n)
    }
}

fn read_to_string<'a>(fields: impl Iterator<Item = &'a str>) -> String {
    // The first field is F, whether an empty final chunk follows: a reader's end is its end.
    let chunks: Result<Vec<Vec<u8>>, String> = fields.skip(1).map(bytes_of).collect();
    let mut text = String::new();
    match chunks.map(|chunks| Chunks(chunks).read_to_string(&mut text)) {
        Ok(Ok(_)) => format!("ok {}", hex_of_text(&text)),
        Ok(Err(error)) if error.kind() == io::ErrorKind::InvalidData => format!("refused - {error}"),
        Ok(Err(error)) => format!("crash {error}"),
        Err(error) => format!("crash bad request: {error}"),
    }
}

fn chunks_replaced(data: &[u8]) -> String {
    let mut text = String::new();
    for chunk in data.utf8_chunks() {
        text.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            text.push(char::REPLACEMENT_CHARACTER);
        }
    }
    text
}

fn answer(mode: &str, line: &str) -> String {
    let mut fields = line.split(' ');
    let operation = fields.next().unwrap_or("");
    if (mode, operation) == ("into-bytes", "encode") {
        return into_bytes(fields.next().unwrap_or(EMPTY));
    }
    if (mode, operation) == ("read-to-string", "incremental") {
        return read_to_string(fields);
    }
    let data = match bytes_of(fields.next().unwrap_or(EMPTY)) {
        Ok(data) => data,
        Err(error) => return format!("crash bad request: {error}"),
    };
    let data_length = data.len();
    match (mode, operation) {
        ("from-utf8", "decode") => match String::from_utf8(data) {
            Ok(text) => format!("ok {}", hex_of_text(&text)),
            Err(error) => {
                let error = error.utf8_error();
                let start = error.valid_up_to();
                let end = error.error_len().map_or(data_length, |length| start + length);
                format!("refused end={end} {start} {error}")
            }
        },
        ("from-utf8", "validate") => format!("ok {}", std::str::from_utf8(&data).is_ok()),
        ("from-utf8-lossy", "replace") => {
            format!("ok {}", hex_of_text(&String::from_utf8_lossy(&data)))
        }
        ("utf8-chunks", "replace") => format!("ok {}", hex_of_text(&chunks_replaced(&data))),
        ("utf8-chunks", "validate") => {
            format!("ok {}", data.utf8_chunks().all(|chunk| chunk.invalid().is_empty()))
        }
        _ => format!("crash unknown request {operation}"),
    }
}

fn main() -> ExitCode {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let capabilities = match mode.as_str() {
        "from-utf8" => "decode validate",
        "from-utf8-lossy" => "replace",
        "into-bytes" => "encode",
        "utf8-chunks" => "replace validate",
        "read-to-string" => "incremental incremental=strict",
        _ => {
            eprintln!(
                "usage: rust_codecs MODE (from-utf8, from-utf8-lossy, into-bytes, utf8-chunks, \
                 read-to-string)"
            );
            return ExitCode::from(2);
        }
    };
    let mut out = io::stdout().lock();
    if writeln!(out, "utf8cert-protocol 1 {capabilities}").and_then(|_| out.flush()).is_err() {
        return ExitCode::from(1);
    }
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let line = line.strip_suffix('\r').unwrap_or(&line);
        if writeln!(out, "{}", answer(&mode, line)).and_then(|_| out.flush()).is_err() {
            break;
        }
    }
    ExitCode::SUCCESS
}
