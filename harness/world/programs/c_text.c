/* Text libraries of C: bidi (GNU FriBidi), shaping (HarfBuzz), Markdown (cmark, cmark-gfm),
 * BSON (libbson), CBOR (libcbor), one program per library: built once per library with
 * -DTEXT_LIBRARY_<NAME> (c_libraries.py). Each mode calls the library's own UTF-8 path. */
#include "c_protocol.h"

#if defined(TEXT_LIBRARY_FRIBIDI)
#include <fribidi.h>

/* fribidi_charset_to_unicode(FRIBIDI_CHAR_SET_UTF8, ...): the entry every FriBidi user's UTF-8
 * goes through. It never refuses (replace). The output holds at most one value per byte. */
static void fribidi_decode(const uint8_t *s, size_t n) {
    FriBidiChar *values = malloc((n + 1) * sizeof *values);
    FriBidiStrIndex count = fribidi_charset_to_unicode(FRIBIDI_CHAR_SET_UTF8, (const char *)s, (FriBidiStrIndex)n, values);
    uint32_t *points = malloc((n + 1) * sizeof *points);
    for (FriBidiStrIndex i = 0; i < count; i++) points[i] = values[i];
    ok_code_points(points, count < 0 ? 0 : (size_t)count);
    free(points), free(values);
}

/* fribidi_unicode_to_charset(FRIBIDI_CHAR_SET_UTF8, ...): encode (at most 4 bytes a value in
 * FriBidi's own buffer sizing, fribidi-char-sets-utf8.c; 6 given, for what it may write). */
static void fribidi_encode(const uint32_t *values, size_t n) {
    FriBidiChar *input = malloc((n + 1) * sizeof *input);
    for (size_t i = 0; i < n; i++) input[i] = values[i];
    char *bytes = malloc(6 * n + 1);
    FriBidiStrIndex length = fribidi_unicode_to_charset(FRIBIDI_CHAR_SET_UTF8, input, (FriBidiStrIndex)n, bytes);
    ok_bytes((const uint8_t *)bytes, length < 0 ? 0 : (size_t)length);
    free(bytes), free(input);
}

static const Mode MODES[] = {
    {"fribidi-charset-to-unicode", NULL, fribidi_decode, NULL, NULL, NULL, ""},
    {"fribidi-unicode-to-charset", NULL, NULL, NULL, fribidi_encode, NULL, ""},
};
#elif defined(TEXT_LIBRARY_HARFBUZZ)
#include <hb.h>

/* hb_buffer_add_utf8 on a new buffer (the whole text as its own context), then the code points
 * it holds before shaping (hb_buffer_get_glyph_infos): ill-formed input is replaced by the
 * buffer's replacement code point, U+FFFD by default (replace). */
static void harfbuzz_decode(const uint8_t *s, size_t n) {
    hb_buffer_t *buffer = hb_buffer_create();
    hb_buffer_add_utf8(buffer, (const char *)s, (int)n, 0, (int)n);
    unsigned int count = 0;
    hb_glyph_info_t *infos = hb_buffer_get_glyph_infos(buffer, &count);
    uint32_t *points = malloc((count + 1) * sizeof *points);
    for (unsigned int i = 0; i < count; i++) points[i] = infos[i].codepoint;
    if (!hb_buffer_allocation_successful(buffer)) answer_word("crash", "hb_buffer allocation failed");
    else ok_code_points(points, count);
    free(points);
    hb_buffer_destroy(buffer);
}

static const Mode MODES[] = {{"harfbuzz-buffer-add-utf8", NULL, harfbuzz_decode, NULL, NULL, NULL, ""}};
#elif defined(TEXT_LIBRARY_CMARK) || defined(TEXT_LIBRARY_CMARK_GFM)
#if defined(TEXT_LIBRARY_CMARK)
#include <cmark.h>
#define MODE_NAME "cmark"
#else
#include <cmark-gfm.h>
#define MODE_NAME "cmark-gfm"
#endif

/* The payload as the content of a fenced code block ("```\n" + payload + "\n```\n"), which
 * Markdown keeps as it is, parsed by cmark_parse_document with `options`; the block's literal
 * (cmark_node_get_literal) less its final line ending. A payload holding a line ending, U+0000
 * (which CommonMark 2.3 replaces) or a fence of its own is inapplicable. It never refuses. */
static void cmark_with(const uint8_t *s, size_t n, int options) {
    for (size_t i = 0; i < n; i++) {
        if (s[i] == 0 || s[i] == '\n' || s[i] == '\r') {
            return answer_word("inapplicable", "a code block's line holds no U+0000, LF or CR (CommonMark 2.3, 4.5)");
        }
    }
    if (n >= 3 && memcmp(s, "```", 3) == 0) return answer_word("inapplicable", "a line starting with ``` closes the fence");
    char *document = malloc(n + 16);
    memcpy(document, "```\n", 4);
    memcpy(document + 4, s, n);
    memcpy(document + 4 + n, "\n```\n", 5);
    cmark_node *root = cmark_parse_document(document, n + 9, options);
    cmark_node *block = cmark_node_first_child(root);
    const char *literal = block ? cmark_node_get_literal(block) : NULL;
    if (block == NULL || cmark_node_get_type(block) != CMARK_NODE_CODE_BLOCK || literal == NULL) {
        answer_word("crash", "no code block");
    } else {
        size_t length = strlen(literal);
        if (length > 0 && literal[length - 1] == '\n') length--;
        read_utf8((const uint8_t *)literal, length);
    }
    cmark_node_free(root);
    free(document);
}

/* CMARK_OPT_DEFAULT: the input's bytes are taken as they are (no UTF-8 check). */
static void cmark_default(const uint8_t *s, size_t n) { cmark_with(s, n, CMARK_OPT_DEFAULT); }

/* CMARK_OPT_VALIDATE_UTF8: the reader replaces ill-formed UTF-8 with U+FFFD (cmark.h). */
static void cmark_validating(const uint8_t *s, size_t n) { cmark_with(s, n, CMARK_OPT_VALIDATE_UTF8); }

static const Mode MODES[] = {
    {MODE_NAME, NULL, cmark_default, NULL, NULL, NULL, ""},
    {MODE_NAME "-validate-utf8", NULL, cmark_validating, NULL, NULL, NULL, ""},
};
#elif defined(TEXT_LIBRARY_BSON)
#include <bson.h>

/* bson_utf8_validate(s, n, allow_null=true): the check bson_validate's BSON_VALIDATE_UTF8
 * applies to each string (a BSON string has a length, and U+0000 inside it is allowed). */
static void bson_validate_utf8(const uint8_t *s, size_t n) {
    ok_bool(bson_utf8_validate((const char *)s, n, true));
}

/* bson_utf8_escape_for_json, the function bson_as_json and its kin write each string with: it
 * returns NULL for what it does not take (strict decode, no offset); its escapes (\" \\ \uXXXX
 * and the short ones) are read back here. */
static void bson_escape(const uint8_t *s, size_t n) {
    char *escaped = bson_utf8_escape_for_json((const char *)s, (ssize_t)n);
    if (escaped == NULL) return refused(-1, "bson_utf8_escape_for_json returned NULL");
    size_t length = strlen(escaped);
    uint8_t *bytes = malloc(length + 1);
    size_t count = 0;
    for (size_t i = 0; i < length; i++) {
        char c = escaped[i];
        if (c != '\\' || i + 1 >= length) {
            bytes[count++] = (uint8_t)c;
            continue;
        }
        c = escaped[++i];
        const char *from = "bfnrt\"\\/", *to = "\b\f\n\r\t\"\\/";
        const char *found = strchr(from, c);
        if (c == 'u' && i + 4 < length) {
            unsigned value = 0;
            sscanf(escaped + i + 1, "%4x", &value);
            i += 4;
            /* \uXXXX here is a control character (libbson escapes nothing else so) */
            if (value < 0x80) bytes[count++] = (uint8_t)value;
            else bytes[count++] = (uint8_t)(0xC0 | value >> 6), bytes[count++] = (uint8_t)(0x80 | (value & 0x3F));
        } else if (found != NULL && c) bytes[count++] = (uint8_t)to[found - from];
        else bytes[count++] = '\\', bytes[count++] = (uint8_t)c;
    }
    read_utf8(bytes, count);
    free(bytes);
    bson_free(escaped);
}

static const Mode MODES[] = {
    {"bson-utf8-validate", NULL, NULL, bson_validate_utf8, NULL, NULL, ""},
    {"bson-utf8-escape-for-json", bson_escape, NULL, NULL, NULL, NULL, ""},
};
#elif defined(TEXT_LIBRARY_CBOR)
#include <cbor.h>

/* cbor_load of a CBOR text string (RFC 8949 §3.1, major type 3, definite length); the value by
 * cbor_string_handle and cbor_string_length. An error of cbor_load is a refusal. */
static void cbor_decode(const uint8_t *s, size_t n) {
    uint8_t *item = malloc(n + 9);
    size_t head = 1;
    if (n < 24) item[0] = (uint8_t)(0x60 + n);
    else if (n < 256) item[0] = 0x78, item[1] = (uint8_t)n, head = 2;
    else if (n < 65536) item[0] = 0x79, item[1] = (uint8_t)(n >> 8), item[2] = (uint8_t)n, head = 3;
    else {
        item[0] = 0x7a, head = 5;
        for (int k = 0; k < 4; k++) item[1 + k] = (uint8_t)(n >> (24 - 8 * k));
    }
    memcpy(item + head, s, n);
    struct cbor_load_result result;
    cbor_item_t *value = cbor_load(item, head + n, &result);
    if (value == NULL || result.error.code != CBOR_ERR_NONE) refused(-1, "cbor_load failed");
    else if (!cbor_isa_string(value)) answer_word("crash", "not a text string");
    else read_utf8(cbor_string_handle(value), cbor_string_length(value));
    if (value != NULL) cbor_decref(&value);
    free(item);
}

static const Mode MODES[] = {{"libcbor", cbor_decode, NULL, NULL, NULL, NULL, ""}};
#else
#error "build with -DTEXT_LIBRARY_<NAME>"
#endif

static int setup(void) { return 0; }

MODES_ARE(MODES)
