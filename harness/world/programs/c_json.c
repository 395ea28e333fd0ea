/* The JSON parsers of C (jansson, json-c, yajl, cJSON), one program per library: this file is
 * built once per library with -DJSON_LIBRARY_<NAME> (c_libraries.py), the payload given to the
 * parser as the characters of a JSON string (wrap_json) and the string's value read back. */
#include "c_protocol.h"

#if defined(JSON_LIBRARY_JANSSON)
#include <jansson.h>

/* json_loadb with JSON_DECODE_ANY and JSON_ALLOW_NUL (a string holding U+0000 is a string); the
 * value read back with json_string_value and json_string_length. jansson checks UTF-8 as it
 * lexes: an error is a refusal, its position not mapped (jansson counts it in its own way). */
static void jansson_decode(const uint8_t *s, size_t n) {
    Wrapped w;
    wrap_json(s, n, &w);
    json_error_t error;
    json_t *value = json_loadb((const char *)w.document, w.length, JSON_DECODE_ANY | JSON_ALLOW_NUL, &error);
    if (value == NULL) refused(-1, error.text);
    else read_utf8((const uint8_t *)json_string_value(value), json_string_length(value));
    json_decref(value);
    unwrap(&w);
}

static const Mode MODES[] = {{"jansson", jansson_decode, NULL, NULL, NULL, NULL, ""}};
#elif defined(JSON_LIBRARY_JSONC)
#include <json-c/json.h>

/* json_tokener_parse_ex on a tokener with `flags`; the value by json_object_get_string and
 * json_object_get_string_len. */
static void jsonc_parse(const uint8_t *s, size_t n, int flags) {
    Wrapped w;
    wrap_json(s, n, &w);
    struct json_tokener *tokener = json_tokener_new();
    json_tokener_set_flags(tokener, flags);
    json_object *value = json_tokener_parse_ex(tokener, (const char *)w.document, (int)w.length);
    enum json_tokener_error error = json_tokener_get_error(tokener);
    if (value == NULL || error != json_tokener_success) {
        refused(payload_offset(&w, (long)json_tokener_get_parse_end(tokener)), json_tokener_error_desc(error));
    } else read_utf8((const uint8_t *)json_object_get_string(value), (size_t)json_object_get_string_len(value));
    json_object_put(value);
    json_tokener_free(tokener);
    unwrap(&w);
}

/* The default tokener (flags 0), as json_tokener_parse uses it. */
static void jsonc_default(const uint8_t *s, size_t n) { jsonc_parse(s, n, 0); }

/* JSON_TOKENER_VALIDATE_UTF8 (json-c 0.15 on): the tokener checks UTF-8 as it reads. */
static void jsonc_validating(const uint8_t *s, size_t n) { jsonc_parse(s, n, JSON_TOKENER_VALIDATE_UTF8); }

static const Mode MODES[] = {
    {"json-c", jsonc_default, NULL, NULL, NULL, NULL, ""},
    {"json-c-validate-utf8", jsonc_validating, NULL, NULL, NULL, NULL, ""},
};
#elif defined(JSON_LIBRARY_YAJL)
#include <yajl/yajl_parse.h>

static Buffer text; /* the string the callback was given */
static int strings_seen;

static int on_string(void *context, const unsigned char *value, size_t length) {
    (void)context;
    Buffer saved = out;
    out = text;
    put((const char *)value, length);
    text = out, out = saved;
    strings_seen++;
    return 1;
}

static const yajl_callbacks CALLBACKS = {.yajl_string = on_string};

/* yajl_parse then yajl_complete_parse with yajl's defaults (strings validated as UTF-8: the
 * yajl_dont_validate_strings option left off); the error offset is yajl_get_bytes_consumed. */
static void yajl_decode(const uint8_t *s, size_t n) {
    Wrapped w;
    wrap_json(s, n, &w);
    yajl_handle parser = yajl_alloc(&CALLBACKS, NULL, NULL);
    text.length = 0, strings_seen = 0;
    yajl_status status = yajl_parse(parser, w.document, w.length);
    if (status == yajl_status_ok) status = yajl_complete_parse(parser);
    if (status != yajl_status_ok) {
        unsigned char *message = yajl_get_error(parser, 0, w.document, w.length);
        char *line = (char *)message;
        for (char *c = line; *c; c++) if (*c == '\n') *c = ' ';
        refused(-1, line);
        yajl_free_error(parser, message);
    } else if (strings_seen != 1) answer_word("crash", "yajl gave no string");
    else read_utf8((const uint8_t *)text.at, text.length);
    yajl_free(parser);
    unwrap(&w);
}

static const Mode MODES[] = {{"yajl", yajl_decode, NULL, NULL, NULL, NULL, ""}};
#elif defined(JSON_LIBRARY_CJSON)
#include <cjson/cJSON.h>

/* cJSON_ParseWithLength; the value by cJSON_GetStringValue, a C string (cJSON keeps no length:
 * a payload holding U+0000 is inapplicable to it, c_libraries.C_STRING_APIS). */
static void cjson_decode(const uint8_t *s, size_t n) {
    Wrapped w;
    wrap_json(s, n, &w);
    cJSON *value = cJSON_ParseWithLength((const char *)w.document, w.length);
    if (value == NULL) refused(-1, "cJSON_ParseWithLength returned NULL");
    else {
        const char *string = cJSON_GetStringValue(value);
        if (string == NULL) answer_word("crash", "not a string");
        else read_utf8((const uint8_t *)string, strlen(string));
    }
    cJSON_Delete(value);
    unwrap(&w);
}

static const Mode MODES[] = {{"cjson", cjson_decode, NULL, NULL, NULL, NULL, ""}};
#else
#error "build with -DJSON_LIBRARY_JANSSON, _JSONC, _YAJL or _CJSON"
#endif

static int setup(void) {
#if defined(JSON_LIBRARY_YAJL)
    text.at = malloc(text.capacity = 64);
    return text.at == NULL;
#else
    return 0;
#endif
}

MODES_ARE(MODES)
