// The C++ standard library's own UTF-8 conversions over utf8cert-protocol 2
// (harness/PROTOCOL.md), one per MODE (built with plain `g++ -std=c++17`, no other library):
//
//   cxx_codecs MODE
//
//   wstring-convert   decode (strict): std::wstring_convert<std::codecvt_utf8<char32_t>,
//                     char32_t>::from_bytes, refused where it throws std::range_error (at
//                     converted()); encode: its to_bytes, refused the same way
//   codecvt-utf8-utf16  the same with std::codecvt_utf8_utf16<char16_t>: decode into UTF-16
//                     and encode from UTF-16 (strings=utf-16)
//   mbrtoc32          decode (strict): a std::mbrtoc32 loop in the C.UTF-8 locale, refused
//                     where it returns (size_t)-1, or -2 at the end (incomplete); encode:
//                     std::c32rtomb per code point; incremental (strict): one mbstate_t fed
//                     the chunks in turn, as the function is meant to be used on a stream
//
// Both conversion facets are deprecated since C++17 but still shipped, and widely used. Each
// mode calls the library and reports what it says; nothing here reads UTF-8 itself.
#include <cerrno>
#include <climits>
#include <clocale>
#include <codecvt>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuchar>
#include <iostream>
#include <locale>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
using Convert32 = std::wstring_convert<std::codecvt_utf8<char32_t>, char32_t>;
using Convert16 = std::wstring_convert<std::codecvt_utf8_utf16<char16_t>, char16_t>;

int nibble(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool bytes_of(const std::string &field, std::string &into) {
    into.clear();
    if (field == "-") return true;
    if (field.size() % 2) return false;
    for (size_t i = 0; i < field.size(); i += 2) {
        int high = nibble(field[i]), low = nibble(field[i + 1]);
        if (high < 0 || low < 0) return false;
        into.push_back(static_cast<char>(high << 4 | low));
    }
    return true;
}

std::u32string code_points_of(const std::string &data) {
    std::u32string values;
    for (size_t i = 0; i + 4 <= data.size(); i += 4) {
        uint32_t value = 0;
        for (size_t k = 0; k < 4; k++) value = value << 8 | static_cast<unsigned char>(data[i + k]);
        values.push_back(static_cast<char32_t>(value));
    }
    return values;
}

std::string ok_code_points(const std::u32string &values) {
    if (values.empty()) return "ok -";
    std::string out = "ok ";
    char hex[9];
    for (char32_t value : values) {
        std::snprintf(hex, sizeof hex, "%08lx", static_cast<unsigned long>(value));
        out += hex;
    }
    return out;
}

std::string ok_bytes(const std::string &bytes) {
    if (bytes.empty()) return "ok -";
    std::string out = "ok ";
    char hex[3];
    for (unsigned char byte : bytes) {
        std::snprintf(hex, sizeof hex, "%02x", byte);
        out += hex;
    }
    return out;
}

// UTF-16 code units as code points: a high surrogate followed by a low one is the character
// they encode; a lone surrogate stays as it is.
std::u32string code_points_of_utf16(const std::u16string &units) {
    std::u32string values;
    for (size_t i = 0; i < units.size(); i++) {
        char32_t unit = units[i];
        if (unit >= 0xD800 && unit < 0xDC00 && i + 1 < units.size() && units[i + 1] >= 0xDC00
            && units[i + 1] < 0xE000) {
            unit = 0x10000 + ((unit - 0xD800) << 10) + (units[i + 1] - 0xDC00);
            i++;
        }
        values.push_back(unit);
    }
    return values;
}

std::string refused(size_t offset, const std::string &message) {
    return "refused " + std::to_string(offset) + " " + message;
}

std::string convert32_decode(const std::string &data) {
    Convert32 convert;
    try {
        return ok_code_points(convert.from_bytes(data));
    } catch (const std::range_error &error) {
        return refused(convert.converted(), std::string("from_bytes threw range_error: ") + error.what());
    }
}

std::string convert32_encode(const std::u32string &values) {
    Convert32 convert;
    try {
        return ok_bytes(convert.to_bytes(values));
    } catch (const std::range_error &error) {
        return refused(convert.converted(), std::string("to_bytes threw range_error: ") + error.what());
    }
}

std::string convert16_decode(const std::string &data) {
    Convert16 convert;
    try {
        return ok_code_points(code_points_of_utf16(convert.from_bytes(data)));
    } catch (const std::range_error &error) {
        return refused(convert.converted(), std::string("from_bytes threw range_error: ") + error.what());
    }
}

std::string convert16_encode(const std::u32string &values) {
    // The string is UTF-16: a supplementary character becomes its pair here (the protocol
    // sends it as one code point); a lone surrogate is one unit, as a char16_t string holds it.
    std::u16string units;
    std::vector<size_t> value_at;  // for each unit, the index of the code point it came from
    for (size_t i = 0; i < values.size(); i++) {
        char32_t value = values[i];
        if (value > 0x10FFFF) return "inapplicable a UTF-16 string cannot hold a value above U+10FFFF";
        if (value >= 0x10000) {
            units.push_back(static_cast<char16_t>(0xD800 + ((value - 0x10000) >> 10)));
            units.push_back(static_cast<char16_t>(0xDC00 + ((value - 0x10000) & 0x3FF)));
            value_at.insert(value_at.end(), {i, i});
        } else {
            units.push_back(static_cast<char16_t>(value));
            value_at.push_back(i);
        }
    }
    Convert16 convert;
    try {
        return ok_bytes(convert.to_bytes(units));
    } catch (const std::range_error &error) {
        size_t unit = convert.converted();
        size_t at = unit < value_at.size() ? value_at[unit] : values.size();
        return refused(at, std::string("to_bytes threw range_error: ") + error.what());
    }
}

// Feed `data` to mbrtoc32 with `state`, appending what it returns; `start` is the offset of
// data[0] in the whole input and `pending` that of the character begun but not finished
// (updated). Return the offset mbrtoc32 refused at, or -1.
long feed_mbrtoc32(const std::string &data, size_t start, std::mbstate_t &state, size_t &pending,
                   bool &partial, std::u32string &values) {
    size_t i = 0;
    while (i < data.size()) {
        char32_t value = 0;
        size_t used = std::mbrtoc32(&value, data.data() + i, data.size() - i, &state);
        if (!partial) pending = start + i;
        if (used == static_cast<size_t>(-1)) return static_cast<long>(pending);
        if (used == static_cast<size_t>(-2)) {  // all the rest was taken in: an unfinished character
            partial = true;
            return -1;
        }
        if (used == static_cast<size_t>(-3)) {  // a value held back (not for UTF-32 output)
            values.push_back(value);
            continue;
        }
        partial = false;
        values.push_back(value);
        i += used == 0 ? 1 : used;  // 0: it read a NUL, one byte
    }
    return -1;
}

std::string mbrtoc32_chunks(const std::vector<std::string> &chunks) {
    std::mbstate_t state{};
    std::u32string values;
    size_t start = 0, pending = 0;
    bool partial = false;
    for (const std::string &chunk : chunks) {
        long at = feed_mbrtoc32(chunk, start, state, pending, partial, values);
        if (at >= 0) return refused(static_cast<size_t>(at), "mbrtoc32 returned (size_t)-1 (EILSEQ)");
        start += chunk.size();
    }
    if (partial) return refused(pending, "mbrtoc32 returned (size_t)-2 at the end (incomplete)");
    return ok_code_points(values);
}

std::string c32rtomb_encode(const std::u32string &values) {
    std::mbstate_t state{};
    std::string out;
    char buffer[MB_LEN_MAX];
    for (size_t i = 0; i < values.size(); i++) {
        size_t written = std::c32rtomb(buffer, values[i], &state);
        if (written == static_cast<size_t>(-1)) return refused(i, "c32rtomb returned (size_t)-1 (EILSEQ)");
        out.append(buffer, written);
    }
    return ok_bytes(out);
}

std::string answer(const std::string &mode, const std::string &request) {
    std::vector<std::string> fields;
    size_t from = 0;
    for (size_t space; (space = request.find(' ', from)) != std::string::npos; from = space + 1)
        fields.push_back(request.substr(from, space - from));
    fields.push_back(request.substr(from));
    const std::string &operation = fields[0];
    size_t first = operation == "incremental" ? 2 : 1;
    std::vector<std::string> chunks;
    for (size_t k = first; k < fields.size(); k++) {
        std::string data;
        if (!bytes_of(fields[k], data)) return "crash bad request field " + fields[k];
        chunks.push_back(data);
    }
    std::string data = chunks.empty() ? std::string() : chunks[0];
    std::string key = mode + " " + operation;
    if (key == "wstring-convert decode") return convert32_decode(data);
    if (key == "wstring-convert encode") return convert32_encode(code_points_of(data));
    if (key == "codecvt-utf8-utf16 decode") return convert16_decode(data);
    if (key == "codecvt-utf8-utf16 encode") return convert16_encode(code_points_of(data));
    if (key == "mbrtoc32 decode") return mbrtoc32_chunks({data});
    if (key == "mbrtoc32 encode") return c32rtomb_encode(code_points_of(data));
    // F (fields[1]) only says whether an empty final chunk follows: feeding mbrtoc32 nothing
    // changes nothing, and the end of the input is checked either way.
    if (key == "mbrtoc32 incremental") return mbrtoc32_chunks(chunks);
    return "crash unknown request " + operation;
}

const char *capabilities(const std::string &mode) {
    if (mode == "wstring-convert") return "decode encode";
    if (mode == "codecvt-utf8-utf16") return "decode encode strings=utf-16";
    if (mode == "mbrtoc32") return "decode encode incremental incremental=strict";
    return nullptr;
}

}  // namespace

int main(int argc, char **argv) {
    std::string mode = argc > 1 ? argv[1] : "";
    const char *offered = capabilities(mode);
    if (offered == nullptr) {
        std::cerr << "usage: cxx_codecs MODE (wstring-convert, codecvt-utf8-utf16, mbrtoc32)\n";
        return 2;
    }
    if (mode == "mbrtoc32" && std::setlocale(LC_CTYPE, "C.UTF-8") == nullptr) {
        std::cerr << "the C.UTF-8 locale is not available here (setlocale failed)\n";
        return 2;
    }
    std::ios::sync_with_stdio(false);
    std::cout << "utf8cert-protocol 2 " << offered << "\n" << std::flush;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        size_t space = line.find(' ');
        std::string id = line.substr(0, space);
        std::string request = space == std::string::npos ? "" : line.substr(space + 1);
        // Flushed each time: the buffer may hold only part of the next request.
        std::cout << id << " " << answer(mode, request) << "\n" << std::flush;
    }
    return 0;
}
