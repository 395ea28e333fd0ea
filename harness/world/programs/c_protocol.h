/* What every C program of this package shares: utf8cert-protocol 2 (harness/PROTOCOL.md), the
 * answers, reading back the UTF-8 a library wrote, and an XML element to hold a payload. Each
 * program (c_glib.c, c_unistring.c, c_utf8proc.c, c_icu.c, c_pcre2.c, c_expat.c, c_libxml2.c)
 * includes this file first, defines its modes (one codec each) and setup(), and ends with
 * MODES_ARE(its array of modes); it is built with its library's pkg-config flags:
 *
 *   gcc -O2 -o c_glib c_glib.c $(pkg-config --cflags --libs glib-2.0)
 *   ./c_glib glib-make-valid
 *
 * Programs rather than ctypes: several of these APIs are called once a character (ctypes would
 * take minutes for a check), and a library that crashes takes its program down, not utf8cert.
 * Each mode calls the library and reports what it says; the only UTF-8 read here is what a
 * library wrote (read_utf8), to give it back as code points.
 */
#ifndef C_PROTOCOL_H
#define C_PROTOCOL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Helpers some builds do not use (each build has one library's modes). */
#define HELPER static __attribute__((unused))

typedef struct {
    char *at;
    size_t length, capacity;
} Buffer;

static Buffer out; /* the answer being written */

static void put(const char *text, size_t length) {
    if (out.length + length + 1 > out.capacity) {
        out.capacity = 2 * (out.length + length + 1);
        out.at = realloc(out.at, out.capacity);
        if (out.at == NULL) {
            fputs("memory: cannot allocate an answer\n", stderr);
            exit(3);
        }
    }
    memcpy(out.at + out.length, text, length);
    out.length += length;
    out.at[out.length] = '\0';
}

static void putf(const char *format, ...) {
    char text[512];
    va_list arguments;
    va_start(arguments, format);
    int length = vsnprintf(text, sizeof text, format, arguments);
    va_end(arguments);
    put(text, length < 0 ? 0 : (size_t)length >= sizeof text ? sizeof text - 1 : (size_t)length);
}

/* The answers of PROTOCOL.md; an offset below zero is `-` (the library does not say). */
HELPER void ok_code_points(const uint32_t *values, size_t count) {
    put("ok ", 3);
    if (count == 0) put("-", 1);
    for (size_t i = 0; i < count; i++) putf("%08lx", (unsigned long)values[i]);
}

HELPER void ok_bytes(const uint8_t *bytes, size_t count) {
    put("ok ", 3);
    if (count == 0) put("-", 1);
    for (size_t i = 0; i < count; i++) putf("%02x", bytes[i]);
}

HELPER void ok_bool(int value) { putf("ok %s", value ? "true" : "false"); }

HELPER void refused(long offset, const char *message) {
    if (offset < 0) putf("refused - %s", message);
    else putf("refused %ld %s", offset, message);
}

HELPER void answer_word(const char *word, const char *message) { putf("%s %s", word, message); }

/* UTF-16 code units as code points: a high surrogate followed by a low one is the character
 * they encode; a lone surrogate stays as it is. */
HELPER void ok_utf16(const uint16_t *units, size_t count) {
    uint32_t *values = malloc((count + 1) * sizeof *values);
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        uint32_t unit = units[i];
        if (unit >= 0xD800 && unit < 0xDC00 && i + 1 < count && units[i + 1] >= 0xDC00
            && units[i + 1] < 0xE000) {
            unit = 0x10000 + ((unit - 0xD800) << 10) + (units[i + 1] - 0xDC00);
            i++;
        }
        values[n++] = unit;
    }
    ok_code_points(values, n);
    free(values);
}

/* The code points of UTF-8 a library wrote, read by the bit layout of RFC 3629 §3 (lone
 * surrogates and values to 1FFFFF kept, so that what a library let through is seen); a byte
 * that fits no layout, or an overlong form, is answered wrong-type. */
HELPER void read_utf8(const uint8_t *s, size_t n) {
    uint32_t *values = malloc((n + 1) * sizeof *values);
    size_t count = 0;
    for (size_t i = 0; i < n;) {
        uint8_t lead = s[i];
        size_t length = lead < 0x80 ? 1 : lead < 0xC0 ? 0 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3
                                                                    : lead < 0xF8 ? 4 : 0;
        static const uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
        uint32_t value = length == 1 ? lead : lead & (0x7F >> length);
        int bad = length == 0 || i + length > n;
        for (size_t k = 1; !bad && k < length; k++) {
            bad = (s[i + k] & 0xC0) != 0x80;
            value = value << 6 | (s[i + k] & 0x3F);
        }
        if (bad || value < smallest[length]) {
            free(values);
            putf("wrong-type the library wrote ill-formed UTF-8: byte %zu of its output is %02x", i, lead);
            return;
        }
        values[count++] = value;
        i += length;
    }
    ok_code_points(values, count);
    free(values);
}

typedef void (*BytesFunction)(const uint8_t *s, size_t n);
typedef void (*EncodeFunction)(const uint32_t *values, size_t n);
typedef void (*ChunksFunction)(uint8_t **chunks, const size_t *lengths, size_t count, int final_empty);
/* A `reuse` request's fields after the word (PROTOCOL.md): earlier streams `0|- BYTES...`, each
 * followed by `next` or `reset`, then the stream asked, `0|1 BYTES...`. */
typedef void (*ReuseFunction)(char **fields, size_t count);

typedef struct {
    const char *name;
    BytesFunction decode, replace, validate;
    EncodeFunction encode;
    ChunksFunction incremental;
    const char *words; /* handshake words after the capabilities (strings=, incremental=) */
    ReuseFunction reuse; /* NULL: no `reuse` requests (the handshake then says nothing of them) */
} Mode;

/* Defined by each program: its modes, and what it sets up before the handshake (0 when ready;
 * else it writes why to stderr). */
static const Mode *modes(size_t *count);
static int setup(void);

/* The end of each program: the array of its modes, the ones main() chooses from. */
#define MODES_ARE(array)                                                                      \
    static const Mode *modes(size_t *count) {                                                 \
        *count = sizeof array / sizeof *array;                                                \
        return array;                                                                         \
    }


/* An XML element holding a payload: `<a>` + payload + `</a>`, the characters XML gives a
 * meaning to written as references, as harness/codec/wrappers.py XML_ELEMENT does. */
typedef struct {
    uint8_t *document;
    size_t length, head, body_end; /* the body is document[head..body_end) */
    long *payload_at; /* for each document byte (and its end), the payload offset, or -1 */
} Wrapped;

/* Return 0 and fill `w`, or -1 after answering inapplicable (a character XML 1.0 cannot hold). */
HELPER int wrap_xml(const uint8_t *s, size_t n, const char *head, const char *tail, Wrapped *w) {
    size_t head_length = strlen(head), tail_length = strlen(tail);
    size_t capacity = head_length + 6 * n + tail_length + 1;
    w->document = malloc(capacity);
    w->payload_at = malloc((capacity + 1) * sizeof(long));
    size_t at = 0;
    for (; at < head_length; at++) w->document[at] = (uint8_t)head[at], w->payload_at[at] = -1;
    for (size_t i = 0; i < n; i++) {
        const char *escape = NULL;
        uint8_t c = s[i];
        if (c == '<') escape = "&lt;";
        else if (c == '&') escape = "&amp;";
        else if (c == '>') escape = "&gt;";
        else if (c == '\r') escape = "&#13;";
        int forbidden = (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
                     || (c == 0xEF && i + 2 < n && s[i + 1] == 0xBF && (s[i + 2] & 0xFE) == 0xBE);
        if (forbidden) {
            uint32_t value = c < 0x20 ? c : 0xFFFE + (s[i + 2] & 1);
            putf("inapplicable XML 1.0 cannot carry U+%04lX (§2.2 Char)", (unsigned long)value);
            free(w->document), free(w->payload_at);
            return -1;
        }
        if (escape == NULL) {
            w->payload_at[at] = (long)i, w->document[at++] = c;
            continue;
        }
        for (size_t k = 0; escape[k]; k++) w->payload_at[at] = (long)i, w->document[at++] = (uint8_t)escape[k];
    }
    size_t end = at; /* the byte after the body stands for the end of the payload */
    for (size_t k = 0; k < tail_length; k++) w->payload_at[at] = -1, w->document[at++] = (uint8_t)tail[k];
    w->payload_at[at] = -1;
    w->payload_at[end] = (long)n;
    w->length = at, w->head = head_length, w->body_end = end;
    return 0;
}

/* A JSON string holding a payload: `"` + payload + `"`, the quote, the backslash and the
 * control characters written as escapes (RFC 8259 §7), as harness/codec/wrappers.py
 * JSON_STRING does; every other byte, ill-formed ones too, is copied as it is. Always 0. */
HELPER int wrap_json(const uint8_t *s, size_t n, Wrapped *w) {
    size_t capacity = 2 + 6 * n + 1;
    w->document = malloc(capacity);
    w->payload_at = malloc((capacity + 1) * sizeof(long));
    size_t at = 0;
    w->payload_at[at] = -1, w->document[at++] = '"';
    for (size_t i = 0; i < n; i++) {
        char escape[8] = {0};
        uint8_t c = s[i];
        if (c == '"' || c == '\\') escape[0] = '\\', escape[1] = (char)c;
        else if (c < 0x20) snprintf(escape, sizeof escape, "\\u%04x", c);
        if (escape[0] == 0) {
            w->payload_at[at] = (long)i, w->document[at++] = c;
            continue;
        }
        for (size_t k = 0; escape[k]; k++) w->payload_at[at] = (long)i, w->document[at++] = (uint8_t)escape[k];
    }
    size_t end = at;
    w->payload_at[at] = -1, w->document[at++] = '"';
    w->payload_at[at] = -1;
    w->payload_at[end] = (long)n;
    w->document[at] = 0; /* for the parsers that read a C string */
    w->length = at, w->head = 1, w->body_end = end;
    return 0;
}

/* Return the document offset of a 1-based line and character column, or -1. The text before a
 * first error is well-formed, so characters are stepped over by their lead bytes' lengths. */
HELPER long line_and_column(const Wrapped *w, long line, long column) {
    size_t at = 0;
    for (long l = 1; l < line; l++) {
        while (at < w->length && w->document[at] != '\n') at++;
        if (at == w->length) return -1;
        at++;
    }
    for (long c = 1; c < column; c++) {
        if (at >= w->length) return -1;
        uint8_t lead = w->document[at];
        at += lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    }
    return at <= w->length ? (long)at : -1;
}

HELPER long payload_offset(const Wrapped *w, long document_offset) {
    if (document_offset < 0 || (size_t)document_offset > w->length) return -1;
    return w->payload_at[document_offset];
}

HELPER void unwrap(Wrapped *w) { free(w->document), free(w->payload_at); }

typedef int (*Feed)(void *parser, const uint8_t *bytes, size_t length, int last);

/* Feed a streaming parser the document `w` in pieces cut where the payload's chunks are cut:
 * the head of the wrapping with the first piece, the tail with the last (or alone, as the
 * final empty feed when `final_empty`). Return 0, or the first failing feed's non-zero result. */
HELPER int feed_document(const Wrapped *w, const size_t *lengths, size_t count, int final_empty,
                         Feed feed, void *parser) {
    size_t from = 0, end = 0, feeds = count + (final_empty || count == 0);
    for (size_t i = 0; i < feeds; i++) {
        end += i < count ? lengths[i] : 0;
        size_t to = w->head;
        while (to < w->body_end && w->payload_at[to] < (long)end) to++;
        if (i + 1 == feeds) to = w->length;
        else if (i + 1 == count) to = w->body_end;
        int failed = feed(parser, w->document + from, to - from, i + 1 == feeds);
        if (failed) return failed;
        from = to;
    }
    return 0;
}

/* The payload of the chunks, whole (for wrap_xml). */
HELPER uint8_t *joined(uint8_t **chunks, const size_t *lengths, size_t count, size_t *n) {
    *n = 0;
    for (size_t i = 0; i < count; i++) *n += lengths[i];
    uint8_t *payload = malloc(*n + 1);
    for (size_t i = 0, at = 0; i < count; at += lengths[i], i++) memcpy(payload + at, chunks[i], lengths[i]);
    return payload;
}

/* ---------------------------------------------------------------------------- the protocol */
static int hex_digit(int c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Return the bytes of a hex field (`-`: none) in a new buffer, their count in *n; NULL if bad. */
static uint8_t *bytes_of(const char *field, size_t *n) {
    size_t digits = strcmp(field, "-") == 0 ? 0 : strlen(field);
    uint8_t *bytes = malloc(digits / 2 + 1);
    if (digits % 2) return free(bytes), NULL;
    for (size_t i = 0; i < digits; i += 2) {
        int high = hex_digit(field[i]), low = hex_digit(field[i + 1]);
        if (high < 0 || low < 0) return free(bytes), NULL;
        bytes[i / 2] = (uint8_t)(high << 4 | low);
    }
    *n = digits / 2;
    return bytes;
}

static void answer(const Mode *mode, char *request) {
    size_t words = 2, count = 0;
    for (const char *c = request; *c; c++) words += *c == ' ';
    char **fields = malloc(words * sizeof *fields);
    for (char *word = strtok(request, " "); word; word = strtok(NULL, " ")) fields[count++] = word;
    if (count >= 3 && strcmp(fields[1], "incremental") == 0 && mode->incremental) {
        size_t chunks = count - 3, *lengths = calloc(chunks + 1, sizeof *lengths);
        uint8_t **data = calloc(chunks + 1, sizeof *data);
        int bad = 0;
        for (size_t i = 0; i < chunks; i++) bad |= (data[i] = bytes_of(fields[3 + i], &lengths[i])) == NULL;
        if (bad) answer_word("crash", "bad hex");
        else mode->incremental(data, lengths, chunks, strcmp(fields[2], "1") == 0);
        for (size_t i = 0; i < chunks; i++) free(data[i]);
        free(data), free(lengths), free(fields);
        return;
    }
    if (count >= 2 && strcmp(fields[1], "reuse") == 0 && mode->reuse) {
        mode->reuse(fields + 2, count - 2);
        free(fields);
        return;
    }
    const char *operation = count == 3 ? fields[1] : "";
    char *field = count == 3 ? fields[2] : "-";
    free(fields);
    if (*operation == 0) return answer_word("crash", "bad request");
    size_t n = 0;
    uint8_t *data = bytes_of(field, &n);
    if (data == NULL) return answer_word("crash", "bad hex");
    if (strcmp(operation, "encode") == 0 && mode->encode && n % 4 == 0) {
        uint32_t *values = malloc((n / 4 + 1) * sizeof *values);
        for (size_t i = 0; i < n / 4; i++)
            values[i] = (uint32_t)data[4 * i] << 24 | (uint32_t)data[4 * i + 1] << 16
                      | (uint32_t)data[4 * i + 2] << 8 | data[4 * i + 3];
        mode->encode(values, n / 4);
        free(values);
    } else if (strcmp(operation, "decode") == 0 && mode->decode) mode->decode(data, n);
    else if (strcmp(operation, "replace") == 0 && mode->replace) mode->replace(data, n);
    else if (strcmp(operation, "validate") == 0 && mode->validate) mode->validate(data, n);
    else answer_word("crash", "unknown request");
    free(data);
}

/* The handshake line of `mode` (in a static buffer). */
static const char *handshake_of(const Mode *mode) {
    static char line[512];
    snprintf(line, sizeof line, "utf8cert-protocol 2%s%s%s%s%s%s%s%s", mode->decode ? " decode" : "",
             mode->replace ? " replace" : "", mode->validate ? " validate" : "",
             mode->encode ? " encode" : "", mode->incremental ? " incremental" : "",
             *mode->words ? " " : "", mode->words, mode->reuse ? " reuse=yes" : "");
    return line;
}

/* Answer one request line (its id first) into `out`, the id first; `line` is cut up. */
static void answer_line(const Mode *mode, char *line) {
    char *space = strchr(line, ' ');
    out.length = 0;
    put(line, space ? (size_t)(space - line + 1) : strlen(line)); /* the id and its space */
    if (space == NULL) put(" ", 1);
    answer(mode, line);
}

static const Mode *mode_named(const char *name) {
    size_t count = 0;
    const Mode *all = modes(&count);
    for (size_t i = 0; name && i < count; i++)
        if (strcmp(name, all[i].name) == 0) return &all[i];
    return NULL;
}

#ifdef UTF8CERT_SHARED
/* Built as a shared library (-DUTF8CERT_SHARED, -fPIC -shared) for a native: codec
 * (harness/codec/native.py): the same protocol through two functions, in the process that
 * loads it, the mode chosen by the handshake's argument. */
static const Mode *chosen;

const char *utf8cert_handshake(const char *argument) {
    chosen = mode_named(argument);
    if (chosen == NULL) {
        fprintf(stderr, "no mode %s in this library\n", argument ? argument : "(none)");
        return NULL;
    }
    return setup() == 0 ? handshake_of(chosen) : NULL;
}

const char *utf8cert_answer(const char *request) {
    char *line = strdup(request);
    if (chosen == NULL || line == NULL) return free(line), NULL;
    answer_line(chosen, line);
    free(line);
    return out.at;
}
#else
int main(int argc, char **argv) {
    const Mode *mode = argc == 2 ? mode_named(argv[1]) : NULL;
    if (mode == NULL) {
        size_t count = 0;
        const Mode *all = modes(&count);
        fprintf(stderr, "usage: %s MODE (one of:", argv[0]);
        for (size_t i = 0; i < count; i++) fprintf(stderr, " %s", all[i].name);
        fprintf(stderr, ")\n");
        return 2;
    }
    if (setup() != 0) return 1;
    printf("%s\n", handshake_of(mode));
    fflush(stdout);
    char *line = NULL;
    size_t size = 0;
    ssize_t length;
    while ((length = getline(&line, &size, stdin)) > 0) {
        while (length && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = 0;
        answer_line(mode, line);
        put("\n", 1);
        if (fwrite(out.at, 1, out.length, stdout) != out.length || fflush(stdout) != 0) break;
    }
    free(line);
    return 0;
}
#endif

#endif
