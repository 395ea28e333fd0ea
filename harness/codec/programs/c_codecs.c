/* The UTF-8 functions of C libraries over utf8cert-protocol 2 (harness/PROTOCOL.md), one codec
 * per MODE. Built once per library, with exactly one of USE_GLIB, USE_UNISTRING, USE_UTF8PROC,
 * USE_ICU, USE_PCRE2, USE_EXPAT, USE_LIBXML2 defined and that library's pkg-config flags:
 *
 *   gcc -O2 -DUSE_GLIB -o c_codecs c_codecs.c $(pkg-config --cflags --libs glib-2.0)
 *   ./c_codecs glib-make-valid
 *
 * A program rather than ctypes: several of these APIs are called once a character (ctypes would
 * take minutes for a check), and a library that crashes takes this process down, not utf8cert.
 * Each mode calls the library and reports what it says; the only UTF-8 this file reads itself is
 * what a library wrote (read_utf8), to give it back as code points.
 */
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

typedef struct {
    const char *name;
    BytesFunction decode, replace, validate;
    EncodeFunction encode;
    ChunksFunction incremental;
    const char *words; /* handshake words after the capabilities (strings=, incremental=) */
} Mode;

#if defined(USE_EXPAT) || defined(USE_LIBXML2)
/* An XML element holding a payload: `<a>` + payload + `</a>`, the characters XML gives a
 * meaning to written as references, as harness/codec/wrappers.py XML_ELEMENT does. */
typedef struct {
    uint8_t *document;
    size_t length, head, body_end; /* the body is document[head..body_end) */
    long *payload_at; /* for each document byte (and its end), the payload offset, or -1 */
} Wrapped;

/* Return 0 and fill `w`, or -1 after answering inapplicable (a character XML 1.0 cannot hold). */
static int wrap_xml(const uint8_t *s, size_t n, const char *head, const char *tail, Wrapped *w) {
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

static long payload_offset(const Wrapped *w, long document_offset) {
    if (document_offset < 0 || (size_t)document_offset > w->length) return -1;
    return w->payload_at[document_offset];
}

static void unwrap(Wrapped *w) { free(w->document), free(w->payload_at); }

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
#endif


/* ---------------------------------------------------------------------------------- GLib */
#if defined(USE_GLIB)
#include <glib.h>

static void answer_error(GError *error, long offset) {
    refused(offset, error->message);
    g_error_free(error);
}

static void glib_validate(const uint8_t *s, size_t n) {
    ok_bool(g_utf8_validate_len((const gchar *)s, n, NULL));
}

/* g_utf8_validate_len's `end` as a strict decoder: refused there; the text of what it accepted
 * is g_utf8_to_ucs4_fast's (which does no checking of its own). */
static void glib_validate_end(const uint8_t *s, size_t n) {
    const gchar *end = NULL;
    if (!g_utf8_validate_len((const gchar *)s, n, &end)) {
        refused((long)(end - (const gchar *)s), "g_utf8_validate_len: end");
        return;
    }
    glong count = 0;
    gunichar *text = g_utf8_to_ucs4_fast((const gchar *)s, (glong)n, &count);
    ok_code_points(text, (size_t)count);
    g_free(text);
}

static void glib_make_valid(const uint8_t *s, size_t n) {
    gchar *text = g_utf8_make_valid((const gchar *)s, (gssize)n);
    /* Nul-terminated, and whole: g_utf8_validate refuses a NUL, so one becomes U+FFFD. */
    read_utf8((const uint8_t *)text, strlen(text));
    g_free(text);
}

/* A strict decoder the way GLib's documentation shows: g_utf8_get_char_validated at each
 * character, stepping over it by the length of its UTF-8; (gunichar)-1 and -2 are refusals. */
static void glib_get_char(const uint8_t *s, size_t n) {
    uint32_t *values = malloc((n + 1) * sizeof *values);
    size_t count = 0;
    for (size_t i = 0; i < n;) {
        gunichar c = g_utf8_get_char_validated((const gchar *)s + i, (gssize)(n - i));
        if (c == (gunichar)-1 || c == (gunichar)-2) {
            refused((long)i, c == (gunichar)-1 ? "(gunichar)-1: not valid UTF-8"
                                               : "(gunichar)-2: an incomplete character");
            free(values);
            return;
        }
        values[count++] = c;
        i += (size_t)g_unichar_to_utf8(c, NULL);
    }
    ok_code_points(values, count);
    free(values);
}

static void glib_unichar_to_utf8(const uint32_t *values, size_t n) {
    uint8_t *bytes = malloc(8 * n + 1);
    size_t length = 0;
    for (size_t i = 0; i < n; i++) length += (size_t)g_unichar_to_utf8(values[i], (gchar *)bytes + length);
    ok_bytes(bytes, length);
    free(bytes);
}

/* g_utf8_to_ucs4 with items_read: an error's offset is stored there; a trailing partial
 * character is not an error but leaves items_read short of the length, which is answered as
 * the refusal the API's caller must make of it. */
static void glib_utf8_to_ucs4(const uint8_t *s, size_t n) {
    glong read = 0, written = 0;
    GError *error = NULL;
    gunichar *text = g_utf8_to_ucs4((const gchar *)s, (glong)n, &read, &written, &error);
    if (text == NULL) {
        answer_error(error, read);
        return;
    }
    if ((size_t)read < n && s[read] != 0) refused(read, "items_read stops short: a partial character");
    else ok_code_points(text, (size_t)written);
    g_free(text);
}

static void glib_ucs4_to_utf8(const uint32_t *values, size_t n) {
    glong read = 0, written = 0;
    GError *error = NULL;
    gchar *bytes = g_ucs4_to_utf8(values, (glong)n, &read, &written, &error);
    if (bytes == NULL) {
        answer_error(error, read);
        return;
    }
    ok_bytes((const uint8_t *)bytes, (size_t)written);
    g_free(bytes);
}

/* g_utf8_to_utf16 with items_read, read as g_utf8_to_ucs4 is. */
static void glib_utf8_to_utf16(const uint8_t *s, size_t n) {
    glong read = 0, written = 0;
    GError *error = NULL;
    gunichar2 *text = g_utf8_to_utf16((const gchar *)s, (glong)n, &read, &written, &error);
    if (text == NULL) {
        answer_error(error, read);
        return;
    }
    if ((size_t)read < n && s[read] != 0) refused(read, "items_read stops short: a partial character");
    else ok_utf16(text, (size_t)written);
    g_free(text);
}

/* g_utf16_to_utf8 on the code points as UTF-16 (this mode declares strings=utf-16); items_read
 * counts UTF-16 units, turned back into the index of the code point. */
static void glib_utf16_to_utf8(const uint32_t *values, size_t n) {
    gunichar2 *units = g_new(gunichar2, 2 * n + 1);
    long *index_of = g_new(long, 2 * n + 1);
    glong count = 0;
    for (size_t i = 0; i < n; i++) {
        index_of[count] = (long)i;
        if (values[i] > 0xFFFF) {
            units[count++] = (gunichar2)(0xD7C0 + (values[i] >> 10));
            index_of[count] = (long)i;
            units[count++] = (gunichar2)(0xDC00 | (values[i] & 0x3FF));
        } else units[count++] = (gunichar2)values[i];
    }
    index_of[count] = (long)n;
    glong read = 0, written = 0;
    GError *error = NULL;
    gchar *bytes = g_utf16_to_utf8(units, count, &read, &written, &error);
    if (bytes == NULL) answer_error(error, read >= 0 && read <= count ? index_of[read] : -1);
    else if (read < count && units[read] != 0) /* a trailing high surrogate: "partial" */
        refused(index_of[read], "items_read stops short: a partial character");
    else ok_bytes((const uint8_t *)bytes, (size_t)written);
    g_free(bytes), g_free(units), g_free(index_of);
}

/* g_convert from UTF-8 to UTF-16LE or UTF-32LE (through iconv); bytes_read is an error's offset,
 * and short of the length on success when the input ends inside a character. */
static void glib_convert_to(const uint8_t *s, size_t n, int utf32) {
    gsize read = 0, written = 0;
    GError *error = NULL;
    const char *target = utf32 ? "UTF-32LE" : "UTF-16LE";
    gchar *converted = g_convert((const gchar *)s, (gssize)n, target, "UTF-8", &read, &written, &error);
    if (converted == NULL) return answer_error(error, (long)read);
    const guchar *b = (const guchar *)converted;
    if (read < n) refused((long)read, "bytes_read stops short: a partial character");
    else if (utf32) {
        uint32_t *values = malloc(written + 4);
        for (gsize i = 0; i < written / 4; i++)
            values[i] = b[4 * i] | b[4 * i + 1] << 8 | b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24;
        ok_code_points(values, written / 4);
        free(values);
    } else {
        uint16_t *units = malloc(written + 2);
        for (gsize i = 0; i < written / 2; i++) units[i] = (uint16_t)(b[2 * i] | b[2 * i + 1] << 8);
        ok_utf16(units, written / 2);
        free(units);
    }
    g_free(converted);
}

static void glib_convert(const uint8_t *s, size_t n) { glib_convert_to(s, n, 0); }

static void glib_convert_utf32(const uint8_t *s, size_t n) { glib_convert_to(s, n, 1); }

static const Mode MODES[] = {
    {"glib-utf8-validate", glib_validate_end, NULL, glib_validate, NULL, NULL, ""},
    {"glib-utf8-make-valid", NULL, glib_make_valid, NULL, NULL, NULL, ""},
    {"glib-get-char-validated", glib_get_char, NULL, NULL, NULL, NULL, ""},
    {"glib-unichar-to-utf8", NULL, NULL, NULL, glib_unichar_to_utf8, NULL, ""},
    {"glib-utf8-to-ucs4", glib_utf8_to_ucs4, NULL, NULL, glib_ucs4_to_utf8, NULL, ""},
    {"glib-utf8-to-utf16", glib_utf8_to_utf16, NULL, NULL, glib_utf16_to_utf8, NULL, "strings=utf-16"},
    {"glib-convert", glib_convert, NULL, NULL, NULL, NULL, ""},
    {"glib-convert-utf32", glib_convert_utf32, NULL, NULL, NULL, NULL, ""},
};
static int setup(void) { return 0; }
#endif

/* ------------------------------------------------------------------------- libunistring */
#if defined(USE_UNISTRING)
#include <unistr.h>

/* u8_check: NULL when valid, else a pointer to the first invalid unit (the error's offset);
 * the text of valid input is u8_to_u32's. */
static void unistring_check(const uint8_t *s, size_t n) {
    const uint8_t *bad = u8_check(s, n);
    if (bad != NULL) {
        refused((long)(bad - s), "u8_check: the first invalid unit");
        return;
    }
    size_t length = 0;
    uint32_t *text = u8_to_u32(s, n, NULL, &length);
    if (text == NULL) return answer_word("crash", "u8_to_u32 failed on what u8_check accepted");
    ok_code_points(text, length);
    free(text);
}

static void unistring_validate(const uint8_t *s, size_t n) { ok_bool(u8_check(s, n) == NULL); }

/* u8_to_u32: NULL (errno EILSEQ) for ill-formed input, with no offset. */
static void unistring_to_u32(const uint8_t *s, size_t n) {
    size_t length = 0;
    uint32_t *text = u8_to_u32(s, n, NULL, &length);
    if (text == NULL) return refused(-1, "u8_to_u32: NULL (EILSEQ)");
    ok_code_points(text, length);
    free(text);
}

/* u8_mbtoucr at each character: -1 (invalid) and -2 (incomplete) are refusals. */
static void unistring_mbtoucr(const uint8_t *s, size_t n) {
    uint32_t *values = malloc((n + 1) * sizeof *values);
    size_t count = 0;
    for (size_t i = 0; i < n;) {
        ucs4_t c;
        int length = u8_mbtoucr(&c, s + i, n - i);
        if (length < 0) {
            refused((long)i, length == -1 ? "u8_mbtoucr: -1, invalid" : "u8_mbtoucr: -2, incomplete");
            free(values);
            return;
        }
        values[count++] = c;
        i += (size_t)length;
    }
    ok_code_points(values, count);
    free(values);
}

/* u8_mbtouc at each character: it gives U+FFFD and the length of what it could not read. */
static void unistring_mbtouc(const uint8_t *s, size_t n) {
    uint32_t *values = malloc((n + 1) * sizeof *values);
    size_t count = 0;
    for (size_t i = 0; i < n;) {
        ucs4_t c;
        int length = u8_mbtouc(&c, s + i, n - i);
        values[count++] = c;
        i += (size_t)(length > 0 ? length : 1);
    }
    ok_code_points(values, count);
    free(values);
}

static void unistring_uctomb(const uint32_t *values, size_t n) {
    uint8_t *bytes = malloc(6 * n + 1);
    size_t length = 0;
    for (size_t i = 0; i < n; i++) {
        int written = u8_uctomb(bytes + length, values[i], 6);
        if (written < 0) {
            refused((long)i, "u8_uctomb: -1, not a Unicode character");
            free(bytes);
            return;
        }
        length += (size_t)written;
    }
    ok_bytes(bytes, length);
    free(bytes);
}

static const Mode MODES[] = {
    {"unistring-u8-check", unistring_check, NULL, unistring_validate, NULL, NULL, ""},
    {"unistring-u8-to-u32", unistring_to_u32, NULL, NULL, NULL, NULL, ""},
    {"unistring-u8-mbtoucr", unistring_mbtoucr, NULL, NULL, NULL, NULL, ""},
    {"unistring-u8-mbtouc", NULL, unistring_mbtouc, NULL, NULL, NULL, ""},
    {"unistring-u8-uctomb", NULL, NULL, NULL, unistring_uctomb, NULL, ""},
};
static int setup(void) { return 0; }
#endif

/* ------------------------------------------------------------------------------ utf8proc */
#if defined(USE_UTF8PROC)
#include <utf8proc.h>

/* utf8proc_iterate at each character: a negative result is a refusal at that character. */
static void utf8proc_decode(const uint8_t *s, size_t n) {
    uint32_t *values = malloc((n + 1) * sizeof *values);
    size_t count = 0;
    for (size_t i = 0; i < n;) {
        utf8proc_int32_t c;
        utf8proc_ssize_t length = utf8proc_iterate(s + i, (utf8proc_ssize_t)(n - i), &c);
        if (length <= 0) {
            refused((long)i, length < 0 ? utf8proc_errmsg(length) : "utf8proc_iterate read nothing");
            free(values);
            return;
        }
        values[count++] = (uint32_t)c;
        i += (size_t)length;
    }
    ok_code_points(values, count);
    free(values);
}

/* utf8proc_encode_char: 0 bytes written is how it refuses a value. */
static void utf8proc_encode(const uint32_t *values, size_t n) {
    uint8_t *bytes = malloc(4 * n + 1);
    size_t length = 0;
    for (size_t i = 0; i < n; i++) {
        utf8proc_ssize_t written = utf8proc_encode_char((utf8proc_int32_t)values[i], bytes + length);
        if (written <= 0) {
            refused((long)i, "utf8proc_encode_char wrote nothing");
            free(bytes);
            return;
        }
        length += (size_t)written;
    }
    ok_bytes(bytes, length);
    free(bytes);
}

/* utf8proc_map with no normalization option: the string decoded and written again (STABLE
 * asks only that no unassigned character be changed); an error has no offset. */
static void utf8proc_map_decode(const uint8_t *s, size_t n) {
    utf8proc_uint8_t *mapped = NULL;
    utf8proc_ssize_t length = utf8proc_map(s, (utf8proc_ssize_t)n, &mapped, UTF8PROC_STABLE);
    if (length < 0) {
        refused(-1, utf8proc_errmsg(length));
        return;
    }
    read_utf8(mapped, (size_t)length);
    free(mapped);
}

static const Mode MODES[] = {
    {"utf8proc-iterate", utf8proc_decode, NULL, NULL, NULL, NULL, ""},
    {"utf8proc-encode-char", NULL, NULL, NULL, utf8proc_encode, NULL, ""},
    {"utf8proc-map", utf8proc_map_decode, NULL, NULL, NULL, NULL, ""},
};
static int setup(void) { return 0; }
#endif

/* ---------------------------------------------------------------------------------- ICU4C */
#if defined(USE_ICU)
#include <unicode/ucnv.h>
#include <unicode/ustring.h>
#include <unicode/utf8.h>

static void icu_answer(const UChar *units, int32_t length, UErrorCode status, long offset) {
    if (U_FAILURE(status)) refused(offset, u_errorName(status));
    else ok_utf16(units, (size_t)length);
}

static void icu_from_utf8(const uint8_t *s, size_t n) {
    UChar *units = malloc((n + 1) * sizeof *units);
    int32_t length = 0;
    UErrorCode status = U_ZERO_ERROR;
    u_strFromUTF8(units, (int32_t)n + 1, &length, (const char *)s, (int32_t)n, &status);
    icu_answer(units, length, status, -1); /* u_strFromUTF8 does not say where */
    free(units);
}

static void icu_from_utf8_with_sub(const uint8_t *s, size_t n) {
    UChar *units = malloc((n + 1) * sizeof *units);
    int32_t length = 0, substitutions = 0;
    UErrorCode status = U_ZERO_ERROR;
    u_strFromUTF8WithSub(units, (int32_t)n + 1, &length, (const char *)s, (int32_t)n, 0xFFFD,
                         &substitutions, &status);
    icu_answer(units, length, status, -1);
    free(units);
}

static void icu_to_utf8_sub(const uint32_t *values, size_t n, int substitute) {
    UChar *units = malloc((2 * n + 1) * sizeof *units);
    int32_t count = 0;
    for (size_t i = 0; i < n; i++) {
        if (values[i] > 0xFFFF) {
            units[count++] = (UChar)(0xD7C0 + (values[i] >> 10));
            units[count++] = (UChar)(0xDC00 | (values[i] & 0x3FF));
        } else units[count++] = (UChar)values[i];
    }
    char *bytes = malloc(3 * (size_t)count + 1);
    int32_t length = 0;
    UErrorCode status = U_ZERO_ERROR;
    int32_t substitutions = 0;
    if (substitute)
        u_strToUTF8WithSub(bytes, 3 * count + 1, &length, units, count, 0xFFFD, &substitutions, &status);
    else u_strToUTF8(bytes, 3 * count + 1, &length, units, count, &status);
    if (U_FAILURE(status)) refused(-1, u_errorName(status));
    else ok_bytes((const uint8_t *)bytes, (size_t)length);
    free(bytes), free(units);
}

static void icu_to_utf8(const uint32_t *values, size_t n) { icu_to_utf8_sub(values, n, 0); }

static void icu_to_utf8_with_sub(const uint32_t *values, size_t n) { icu_to_utf8_sub(values, n, 1); }

/* ucnv's UTF-8 converter fed chunk by chunk (flush on the last), with the STOP callback
 * (strict: the error's offset is where the converter stopped, less the bytes it names as
 * invalid) or the default SUBSTITUTE one (U+FFFD). */
static void icu_converter(uint8_t **chunks, const size_t *lengths, size_t count, int final_empty, int stop) {
    UErrorCode status = U_ZERO_ERROR;
    UConverter *converter = ucnv_open("UTF-8", &status);
    if (stop) ucnv_setToUCallBack(converter, UCNV_TO_U_CALLBACK_STOP, NULL, NULL, NULL, &status);
    size_t total = 0;
    for (size_t i = 0; i < count; i++) total += lengths[i];
    UChar *units = malloc((total + 8) * sizeof *units), *target = units;
    long fed = 0;
    size_t feeds = count + (final_empty || count == 0);
    for (size_t i = 0; i < feeds && U_SUCCESS(status); i++) {
        const char *source = i < count ? (const char *)chunks[i] : "";
        const char *start = source, *limit = source + (i < count ? lengths[i] : 0);
        ucnv_toUnicode(converter, &target, units + total + 8, &source, limit, NULL, i + 1 == feeds, &status);
        fed += (long)(source - start);
    }
    long offset = -1;
    if (U_FAILURE(status)) {
        char invalid[32];
        int8_t invalid_length = sizeof invalid;
        UErrorCode ignored = U_ZERO_ERROR;
        ucnv_getInvalidChars(converter, invalid, &invalid_length, &ignored);
        offset = U_SUCCESS(ignored) ? fed - invalid_length : -1;
    }
    icu_answer(units, (int32_t)(target - units), status, offset);
    free(units);
    ucnv_close(converter);
}

static void icu_stop_chunks(uint8_t **chunks, const size_t *lengths, size_t count, int final_empty) {
    icu_converter(chunks, lengths, count, final_empty, 1);
}

static void icu_substitute_chunks(uint8_t **chunks, const size_t *lengths, size_t count, int final_empty) {
    icu_converter(chunks, lengths, count, final_empty, 0);
}

static void icu_stop(const uint8_t *s, size_t n) {
    uint8_t *chunk = (uint8_t *)s;
    icu_converter(&chunk, &n, 1, 0, 1);
}

static void icu_substitute(const uint8_t *s, size_t n) {
    uint8_t *chunk = (uint8_t *)s;
    icu_converter(&chunk, &n, 1, 0, 0);
}

/* ICU's utf8.h macros, compiled in from the installed headers: U8_NEXT (c < 0 for an
 * ill-formed sequence, which it steps over), U8_NEXT_OR_FFFD, and U8_APPEND (isError for a value
 * that is no code point it can write). They take code points, not UTF-16. */
static void icu_u8_next(const uint8_t *s, size_t n) {
    uint32_t *values = malloc((n + 1) * sizeof *values);
    size_t count = 0;
    for (int32_t i = 0; i < (int32_t)n;) {
        int32_t start = i;
        UChar32 c;
        U8_NEXT(s, i, (int32_t)n, c);
        if (c < 0) {
            refused(start, "U8_NEXT: c < 0");
            free(values);
            return;
        }
        values[count++] = (uint32_t)c;
    }
    ok_code_points(values, count);
    free(values);
}

static void icu_u8_next_or_fffd(const uint8_t *s, size_t n) {
    uint32_t *values = malloc((n + 1) * sizeof *values);
    size_t count = 0;
    for (int32_t i = 0; i < (int32_t)n;) {
        UChar32 c;
        U8_NEXT_OR_FFFD(s, i, (int32_t)n, c);
        values[count++] = (uint32_t)c;
    }
    ok_code_points(values, count);
    free(values);
}

static void icu_u8_append(const uint32_t *values, size_t n) {
    uint8_t *bytes = malloc(4 * n + 1);
    int32_t length = 0;
    for (size_t i = 0; i < n; i++) {
        UBool error = 0;
        U8_APPEND(bytes, length, (int32_t)(4 * n), (UChar32)values[i], error);
        if (error) {
            refused((long)i, "U8_APPEND: isError");
            free(bytes);
            return;
        }
    }
    ok_bytes(bytes, (size_t)length);
    free(bytes);
}

static const Mode MODES[] = {
    {"icu-u8-macros", icu_u8_next, icu_u8_next_or_fffd, NULL, icu_u8_append, NULL, ""},
    {"icu-strfromutf8", icu_from_utf8, NULL, NULL, NULL, NULL, "strings=utf-16"},
    {"icu-strfromutf8withsub", NULL, icu_from_utf8_with_sub, NULL, NULL, NULL, "strings=utf-16"},
    {"icu-strtoutf8", NULL, NULL, NULL, icu_to_utf8, NULL, "strings=utf-16"},
    {"icu-strtoutf8withsub", NULL, NULL, NULL, icu_to_utf8_with_sub, NULL, "strings=utf-16"},
    {"icu-ucnv-stop", icu_stop, NULL, NULL, NULL, icu_stop_chunks, "strings=utf-16 incremental=strict"},
    {"icu-ucnv-substitute", NULL, icu_substitute, NULL, NULL, icu_substitute_chunks,
     "strings=utf-16 incremental=replace"},
};
static int setup(void) { return 0; }
#endif

/* ---------------------------------------------------------------------------------- PCRE2 */
#if defined(USE_PCRE2)
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

static pcre2_code *empty_pattern;
static pcre2_match_data *match_data;

/* pcre2_match with PCRE2_UTF checks the subject first: a UTF-8 error (PCRE2_ERROR_UTF8_ERR1 to
 * ERR21) is a refusal at pcre2_get_startchar, the offset of the invalid character. Return the
 * status: 0 when the subject passed the check. */
static int pcre2_check(const uint8_t *s, size_t n) {
    int status = pcre2_match(empty_pattern, s, n, 0, 0, match_data, NULL);
    return status >= 0 || status == PCRE2_ERROR_NOMATCH ? 0 : status;
}

static int is_utf_error(int status) {
    return status <= PCRE2_ERROR_UTF8_ERR1 && status >= PCRE2_ERROR_UTF8_ERR21;
}

/* Accepted subjects are given back as the code points of their bytes (the text is not PCRE2's:
 * it has none to give; what it accepted is what is judged). */
static void pcre2_decode(const uint8_t *s, size_t n) {
    int status = pcre2_check(s, n);
    PCRE2_UCHAR message[256];
    if (status == 0) return read_utf8(s, n);
    pcre2_get_error_message(status, message, sizeof message);
    if (is_utf_error(status)) refused((long)pcre2_get_startchar(match_data), (const char *)message);
    else answer_word("crash", (const char *)message);
}

static void pcre2_validate(const uint8_t *s, size_t n) {
    int status = pcre2_check(s, n);
    if (status == 0 || is_utf_error(status)) return ok_bool(status == 0);
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(status, message, sizeof message);
    answer_word("crash", (const char *)message);
}

static const Mode MODES[] = {
    {"pcre2-utf", pcre2_decode, NULL, pcre2_validate, NULL, NULL, ""},
};

static int setup(void) {
    int error;
    PCRE2_SIZE at;
    empty_pattern = pcre2_compile((PCRE2_SPTR) "", 0, PCRE2_UTF, &error, &at, NULL);
    match_data = pcre2_match_data_create(1, NULL);
    if (empty_pattern == NULL || match_data == NULL) {
        fputs("pcre2_compile cannot compile an empty pattern with PCRE2_UTF\n", stderr);
        return 1;
    }
    return 0;
}
#endif

/* ---------------------------------------------------------------------------------- expat */
#if defined(USE_EXPAT)
#include <expat.h>

static Buffer text; /* the character data of the document, as expat gives it (UTF-8) */

static void XMLCALL on_characters(void *user, const XML_Char *s, int length) {
    (void)user;
    Buffer saved = out;
    out = text; /* put() appends to `out` */
    put(s, (size_t)length);
    text = out, out = saved;
}

/* The payload as the text of <a>...</a>, parsed whole by XML_Parse; an error's offset is
 * XML_GetCurrentByteIndex, mapped back to the payload. */
static void expat_decode(const uint8_t *s, size_t n) {
    Wrapped w;
    if (wrap_xml(s, n, "<a>", "</a>", &w) != 0) return;
    XML_Parser parser = XML_ParserCreate(NULL);
    XML_SetCharacterDataHandler(parser, on_characters);
    text.length = 0;
    if (XML_Parse(parser, (const char *)w.document, (int)w.length, 1) == XML_STATUS_ERROR) {
        long at = payload_offset(&w, (long)XML_GetCurrentByteIndex(parser));
        refused(at, XML_ErrorString(XML_GetErrorCode(parser)));
    } else read_utf8((const uint8_t *)text.at, text.length);
    XML_ParserFree(parser);
    unwrap(&w);
}

static int expat_feed(void *parser, const uint8_t *bytes, size_t length, int last) {
    return XML_Parse(parser, (const char *)bytes, (int)length, last) == XML_STATUS_ERROR;
}

/* expat's streaming: XML_Parse fed the document in pieces cut where the chunks are cut;
 * XML_GetCurrentByteIndex counts from the start of the document. */
static void expat_chunks(uint8_t **chunks, const size_t *lengths, size_t count, int final_empty) {
    size_t n;
    uint8_t *payload = joined(chunks, lengths, count, &n);
    Wrapped w;
    if (wrap_xml(payload, n, "<a>", "</a>", &w) != 0) return free(payload);
    XML_Parser parser = XML_ParserCreate(NULL);
    XML_SetCharacterDataHandler(parser, on_characters);
    text.length = 0;
    if (feed_document(&w, lengths, count, final_empty, expat_feed, parser)) {
        long at = payload_offset(&w, (long)XML_GetCurrentByteIndex(parser));
        refused(at, XML_ErrorString(XML_GetErrorCode(parser)));
    } else read_utf8((const uint8_t *)text.at, text.length);
    XML_ParserFree(parser);
    unwrap(&w);
    free(payload);
}

static const Mode MODES[] = {
    {"expat", expat_decode, NULL, NULL, NULL, expat_chunks, "incremental=strict"},
};
static int setup(void) {
    text.at = malloc(text.capacity = 64);
    return text.at == NULL;
}
#endif

/* -------------------------------------------------------------------------------- libxml2 */
#if defined(USE_LIBXML2)
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>

/* Answer the text content of a parsed document's root (and free the document). */
static void root_text(xmlDocPtr document) {
    xmlChar *content = xmlNodeGetContent(xmlDocGetRootElement(document));
    if (content == NULL) answer_word("crash", "the document has no root element");
    else read_utf8(content, strlen((const char *)content));
    xmlFree(content);
    xmlFreeDoc(document);
}

static struct {
    int seen, line, column;
    char message[256];
} first_error; /* libxml2 goes on after an error: the first one says where the input broke */

static void on_error(void *user, xmlErrorPtr error) {
    (void)user;
    if (first_error.seen++) return;
    first_error.line = error->line, first_error.column = error->int2;
    snprintf(first_error.message, sizeof first_error.message, "%s", error->message ? error->message : "?");
    first_error.message[strcspn(first_error.message, "\n")] = 0;
}

/* xmlReadMemory on <a>payload</a>: strict, or with XML_PARSE_RECOVER; a failure's offset is the
 * line and column (in characters) of libxml2's first error, mapped back to the payload. */
static void libxml2_read(const uint8_t *s, size_t n, int options) {
    Wrapped w;
    if (wrap_xml(s, n, "<a>", "</a>", &w) != 0) return;
    first_error.seen = 0;
    xmlDocPtr document = xmlReadMemory((const char *)w.document, (int)w.length, "payload.xml", NULL,
                                       options | XML_PARSE_NONET | XML_PARSE_HUGE);
    if (document != NULL) root_text(document);
    else if (!first_error.seen) answer_word("crash", "xmlReadMemory returned no document and no error");
    else refused(payload_offset(&w, line_and_column(&w, first_error.line, first_error.column)),
                 first_error.message);
    unwrap(&w);
}

/* XML_PARSE_HUGE everywhere: without it libxml2 refuses a text node over 10 MB, a limit of its
 * own, not a UTF-8 finding. */
static void libxml2_strict(const uint8_t *s, size_t n) { libxml2_read(s, n, 0); }

static void libxml2_recover(const uint8_t *s, size_t n) { libxml2_read(s, n, XML_PARSE_RECOVER); }

static int libxml2_feed(void *context, const uint8_t *bytes, size_t length, int last) {
    xmlParserCtxtPtr parser = context;
    return xmlParseChunk(parser, (const char *)bytes, (int)length, last) != 0 || !parser->wellFormed;
}

/* The push parser (xmlCreatePushParserCtxt, xmlParseChunk) fed the document in pieces cut where
 * the chunks are cut; a failure's offset is its first error's line and column. */
static void libxml2_push(uint8_t **chunks, const size_t *lengths, size_t count, int final_empty) {
    size_t n;
    uint8_t *payload = joined(chunks, lengths, count, &n);
    Wrapped w;
    if (wrap_xml(payload, n, "<a>", "</a>", &w) != 0) return free(payload);
    first_error.seen = 0;
    xmlParserCtxtPtr parser = xmlCreatePushParserCtxt(NULL, NULL, NULL, 0, "payload.xml");
    xmlCtxtUseOptions(parser, XML_PARSE_NONET | XML_PARSE_HUGE);
    if (feed_document(&w, lengths, count, final_empty, libxml2_feed, parser) == 0 && parser->myDoc)
        root_text(parser->myDoc);
    else {
        if (parser->myDoc) xmlFreeDoc(parser->myDoc);
        if (!first_error.seen) answer_word("crash", "the push parser failed with no error");
        else refused(payload_offset(&w, line_and_column(&w, first_error.line, first_error.column)),
                     first_error.message);
    }
    xmlFreeParserCtxt(parser);
    unwrap(&w);
    free(payload);
}

static void libxml2_push_whole(const uint8_t *s, size_t n) {
    uint8_t *chunk = (uint8_t *)s;
    libxml2_push(&chunk, &n, 1, 0);
}

/* htmlReadMemory, told the document is UTF-8: the lenient HTML parser. */
static void libxml2_html(const uint8_t *s, size_t n) {
    Wrapped w;
    if (wrap_xml(s, n, "<html><body><p>", "</p></body></html>", &w) != 0) return;
    htmlDocPtr document = htmlReadMemory((const char *)w.document, (int)w.length, "payload.html", "UTF-8",
                                         HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET | XML_PARSE_HUGE);
    if (document == NULL) answer_word("crash", "htmlReadMemory returned no document");
    else root_text(document);
    unwrap(&w);
}

static const Mode MODES[] = {
    {"libxml2-read-memory", libxml2_strict, NULL, NULL, NULL, NULL, ""},
    {"libxml2-push", libxml2_push_whole, NULL, NULL, NULL, libxml2_push, "incremental=strict"},
    {"libxml2-recover", NULL, libxml2_recover, NULL, NULL, NULL, ""},
    {"libxml2-html", NULL, libxml2_html, NULL, NULL, NULL, ""},
};
static int setup(void) {
    xmlInitParser();
    xmlSetStructuredErrorFunc(NULL, on_error);
    return 0;
}
#endif

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

int main(int argc, char **argv) {
    const Mode *mode = NULL;
    for (size_t i = 0; argc == 2 && i < sizeof MODES / sizeof *MODES; i++)
        if (strcmp(argv[1], MODES[i].name) == 0) mode = &MODES[i];
    if (mode == NULL) {
        fprintf(stderr, "usage: c_codecs MODE (this build has:");
        for (size_t i = 0; i < sizeof MODES / sizeof *MODES; i++) fprintf(stderr, " %s", MODES[i].name);
        fprintf(stderr, ")\n");
        return 2;
    }
    if (setup() != 0) return 1;
    printf("utf8cert-protocol 2%s%s%s%s%s%s%s\n", mode->decode ? " decode" : "",
           mode->replace ? " replace" : "", mode->validate ? " validate" : "",
           mode->encode ? " encode" : "", mode->incremental ? " incremental" : "",
           *mode->words ? " " : "", mode->words);
    fflush(stdout);
    char *line = NULL;
    size_t size = 0;
    ssize_t length;
    while ((length = getline(&line, &size, stdin)) > 0) {
        while (length && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = 0;
        char *space = strchr(line, ' ');
        out.length = 0;
        put(line, space ? (size_t)(space - line + 1) : strlen(line)); /* the id and its space */
        if (space == NULL) put(" ", 1);
        answer(mode, line);
        put("\n", 1);
        if (fwrite(out.at, 1, out.length, stdout) != out.length || fflush(stdout) != 0) break;
    }
    free(line);
    return 0;
}
