// A utf8cert-protocol 2 program in Rust (harness/PROTOCOL.md), to copy for your own codec:
//
//   rustc -O -o utf8_template examples/rust/utf8_template.rs
//   utf8cert check "cmd:./utf8_template"
//
// or the same as a library loaded in the fuzzing process (docs/fuzzing.md, "Native codecs"),
// its branches guiding libFuzzer (stable rustc has SanitizerCoverage, not AddressSanitizer):
//
//   rustc -O --crate-type cdylib --cfg utf8cert_shared -C passes=sancov-module \
//     -C llvm-args=-sanitizer-coverage-level=3 -C llvm-args=-sanitizer-coverage-inline-8bit-counters \
//     -C llvm-args=-sanitizer-coverage-pc-table -C llvm-args=-sanitizer-coverage-trace-compares \
//     -o libutf8_template.so examples/rust/utf8_template.rs
//   utf8cert fuzz native:./libutf8_template.so
//
// It wraps Rust's standard library (no crates); put your codec's calls in the functions marked
// YOUR CODEC, and drop from CAPABILITIES what it does not offer. Err((offset, message)) refuses:
// the offset of the first offending byte (of the code point, for encode), None when your codec
// does not say.
#![allow(unexpected_cfgs)] // utf8cert_shared: set with --cfg for the library build
#[cfg(not(utf8cert_shared))]
use std::io::{self, BufRead, Write};

const CAPABILITIES: &str = "decode replace validate encode incremental";
type Refusal = (Option<usize>, String);

// YOUR CODEC: strict decoding.
fn decode(data: &[u8]) -> Result<String, Refusal> {
    String::from_utf8(data.to_vec()).map_err(|error| {
        let error = error.utf8_error();
        (Some(error.valid_up_to()), error.to_string())
    })
}

// YOUR CODEC: U+FFFD for ill-formed input.
fn replace(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

// YOUR CODEC: is it well-formed?
fn validate(data: &[u8]) -> bool {
    std::str::from_utf8(data).is_ok()
}

// YOUR CODEC: strict encoding of code points (a surrogate or a value above U+10FFFF is no char).
fn encode(values: &[u32]) -> Result<Vec<u8>, Refusal> {
    let mut text = String::new();
    for (index, &value) in values.iter().enumerate() {
        let character = char::from_u32(value).ok_or((Some(index), format!("no char {value:#x}")))?;
        text.push(character);
    }
    Ok(text.into_bytes())
}

// YOUR CODEC: fed in chunks; a character cut between chunks is held until the next one. The
// offset of a refusal counts from the start of all the chunks.
fn incremental(chunks: &[Vec<u8>]) -> Result<String, Refusal> {
    let (mut text, mut held, mut fed) = (String::new(), Vec::new(), 0);
    for (index, chunk) in chunks.iter().enumerate() {
        held.extend_from_slice(chunk);
        let last = index + 1 == chunks.len();
        match std::str::from_utf8(&held) {
            Ok(valid) => text.push_str(valid),
            // error_len() is None: the bytes end inside a character that may go on.
            Err(error) if error.error_len().is_none() && !last => {
                let good = error.valid_up_to();
                text.push_str(std::str::from_utf8(&held[..good]).unwrap());
                fed += good;
                held.drain(..good);
                continue;
            }
            Err(error) => return Err((Some(fed + error.valid_up_to()), error.to_string())),
        }
        fed += held.len();
        held.clear();
    }
    Ok(text)
}

// The protocol's fields: bytes as hex, code points as eight hex digits each, "-" for none.
fn bytes_of(field: &str) -> Vec<u8> {
    let digits = if field == "-" { "" } else { field };
    (0..digits.len()).step_by(2).map(|i| u8::from_str_radix(&digits[i..i + 2], 16).unwrap()).collect()
}

fn values_of(field: &str) -> Vec<u32> {
    let digits = if field == "-" { "" } else { field };
    (0..digits.len()).step_by(8).map(|i| u32::from_str_radix(&digits[i..i + 8], 16).unwrap()).collect()
}

fn hex_of_bytes(bytes: &[u8]) -> String {
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    if hex.is_empty() { "-".into() } else { hex }
}

fn hex_of_text(text: &str) -> String {
    let hex: String = text.chars().map(|c| format!("{:08x}", c as u32)).collect();
    if hex.is_empty() { "-".into() } else { hex }
}

fn answer(operation: &str, fields: &[&str]) -> String {
    let field = fields.first().copied().unwrap_or("-");
    let result = match operation {
        "decode" => decode(&bytes_of(field)).map(|text| hex_of_text(&text)),
        "replace" => Ok(hex_of_text(&replace(&bytes_of(field)))),
        "validate" => Ok(validate(&bytes_of(field)).to_string()),
        "encode" => encode(&values_of(field)).map(|bytes| hex_of_bytes(&bytes)),
        "incremental" => {
            let mut chunks: Vec<Vec<u8>> = fields[1..].iter().map(|f| bytes_of(f)).collect();
            if field == "1" || chunks.is_empty() {
                chunks.push(Vec::new());
            }
            incremental(&chunks).map(|text| hex_of_text(&text))
        }
        _ => return format!("crash unknown request {operation}"),
    };
    match result {
        Ok(value) => format!("ok {value}"),
        Err((offset, message)) => {
            let offset = offset.map_or("-".to_string(), |at| at.to_string());
            format!("refused {offset} {message}")
        }
    }
}

#[cfg(utf8cert_shared)]
mod shared {
    // The protocol through two functions instead of a pipe: each request line in, its answer out.
    use std::cell::RefCell;
    use std::ffi::{c_char, CStr, CString};

    thread_local! {
        static HANDSHAKE: CString =
            CString::new(super::handshake()).unwrap();
        static ANSWER: RefCell<CString> = RefCell::new(CString::default());
    }

    #[no_mangle]
    pub extern "C" fn utf8cert_handshake(_argument: *const c_char) -> *const c_char {
        HANDSHAKE.with(|line| line.as_ptr())
    }

    #[no_mangle]
    pub extern "C" fn utf8cert_answer(request: *const c_char) -> *const c_char {
        let line = unsafe { CStr::from_ptr(request) }.to_string_lossy().into_owned();
        let words: Vec<&str> = line.split(' ').collect(); // the id, the operation, its fields
        let text = format!("{} {}", words[0], super::answer(words.get(1).copied().unwrap_or(""), &words[2.min(words.len())..]));
        ANSWER.with(|answer| {
            *answer.borrow_mut() = CString::new(text).unwrap();
            answer.borrow().as_ptr()
        })
    }
}

// The handshake: the capabilities left in CAPABILITIES, and the incremental decoder's mode only
// when `incremental` is one of them (PROTOCOL.md: the word needs the capability).
fn handshake() -> String {
    let mode = if CAPABILITIES.split(' ').any(|word| word == "incremental") { " incremental=strict" } else { "" };
    format!("utf8cert-protocol 2 {CAPABILITIES}{mode}")
}

#[cfg(not(utf8cert_shared))]
fn main() {
    let mut out = io::stdout().lock();
    writeln!(out, "{}", handshake()).unwrap();
    out.flush().unwrap();
    for line in io::stdin().lock().lines() {
        let line = line.expect("stdin is ASCII lines");
        let words: Vec<&str> = line.split(' ').collect(); // the id, the operation, its fields
        if writeln!(out, "{} {}", words[0], answer(words[1], &words[2..])).and_then(|_| out.flush()).is_err() {
            break;
        }
    }
}
