/* Direct reproducers of the world's findings (issue 43): each library called as its own
 * documentation shows, with none of utf8cert's code (no c_protocol.h). Built once per library
 * by bench/reproduce_world.py with -DREPRO_<LIBRARY>; reads one hex input a line on stdin and
 * writes one line: `ok HEX` (the bytes the library gave back, or for FriBidi's decoder and
 * HarfBuzz's buffer its code points as 8 hex digits each), `refused` (json-c: `refused N`, the
 * input's offset where its tokener stopped), or `valid 0|1`. */
#define _GNU_SOURCE /* getline */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void print_hex(const char *word, const uint8_t *s, size_t n) {
    printf("%s ", word);
    if (n == 0) printf("-");
    for (size_t i = 0; i < n; i++) printf("%02x", s[i]);
    printf("\n");
}

/* Where each byte of the last JSON document came from in its input (for an error's offset). */
static size_t *payload_at;

/* A JSON document that is one string: ", \ and controls as \u00XX, other bytes as they are. */
static char *json_string(const uint8_t *s, size_t n, size_t *length) {
    char *doc = malloc(6 * n + 3);
    payload_at = realloc(payload_at, (6 * n + 3) * sizeof *payload_at);
    size_t at = 0;
    payload_at[at] = 0, doc[at++] = '"';
    for (size_t i = 0; i < n; i++) {
        size_t from = at;
        if (s[i] < 0x20 || s[i] == '"' || s[i] == '\\') at += (size_t)sprintf(doc + at, "\\u%04x", s[i]);
        else doc[at++] = (char)s[i];
        while (from < at) payload_at[from++] = i;
    }
    payload_at[at] = n, doc[at++] = '"';
    payload_at[at] = n;
    doc[at] = 0;
    *length = at;
    return doc;
}

#if defined(REPRO_JSONC)
#include <json-c/json.h>
static int flags;
static void run(const uint8_t *s, size_t n) {
    size_t length;
    char *doc = json_string(s, n, &length);
    struct json_tokener *tok = json_tokener_new();
    json_tokener_set_flags(tok, flags);
    json_object *value = json_tokener_parse_ex(tok, doc, (int)length);
    if (value == NULL || json_tokener_get_error(tok) != json_tokener_success)
        printf("refused %zu\n", payload_at[json_tokener_get_parse_end(tok)]); /* where it stopped */
    else print_hex("ok", (const uint8_t *)json_object_get_string(value), (size_t)json_object_get_string_len(value));
    json_object_put(value), json_tokener_free(tok), free(doc);
}
static void init(int argc, char **argv) { flags = argc > 1 && strcmp(argv[1], "validate") == 0 ? JSON_TOKENER_VALIDATE_UTF8 : 0; }
#elif defined(REPRO_YAJL)
#include <yajl/yajl_tree.h>
static void run(const uint8_t *s, size_t n) {
    size_t length;
    char *doc = json_string(s, n, &length);
    char error[256];
    yajl_val value = yajl_tree_parse(doc, error, sizeof error);  /* yajl's defaults */
    if (value == NULL || !YAJL_IS_STRING(value)) printf("refused\n");
    else print_hex("ok", (const uint8_t *)YAJL_GET_STRING(value), strlen(YAJL_GET_STRING(value)));
    yajl_tree_free(value), free(doc);
}
static void init(int argc, char **argv) { (void)argc, (void)argv; }
#elif defined(REPRO_CJSON)
#include <cjson/cJSON.h>
static void run(const uint8_t *s, size_t n) {
    size_t length;
    char *doc = json_string(s, n, &length);
    cJSON *value = cJSON_Parse(doc);
    if (value == NULL || !cJSON_IsString(value)) printf("refused\n");
    else print_hex("ok", (const uint8_t *)value->valuestring, strlen(value->valuestring));
    cJSON_Delete(value), free(doc);
}
static void init(int argc, char **argv) { (void)argc, (void)argv; }
#elif defined(REPRO_CMARK) || defined(REPRO_CMARK_GFM)
#if defined(REPRO_CMARK)
#include <cmark.h>
#else
#include <cmark-gfm.h>
#endif
static int options;
/* cmark_markdown_to_html of a fenced code block; the code's bytes, HTML escapes undone. */
static void run(const uint8_t *s, size_t n) {
    char *doc = malloc(n + 16);
    memcpy(doc, "```\n", 4), memcpy(doc + 4, s, n), memcpy(doc + 4 + n, "\n```\n", 6);
    char *html = cmark_markdown_to_html(doc, n + 9, options);
    char *start = strstr(html, "<code>"), *end = strstr(html, "\n</code>");
    if (start == NULL || end == NULL) { printf("refused\n"); free(html), free(doc); return; }
    uint8_t *text = malloc(strlen(html) + 1);
    size_t count = 0;
    static const char *entities[][2] = {{"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}, {"&quot;", "\""}};
    for (char *c = start + 6; c < end;) {
        int done = 0;
        for (int k = 0; k < 4 && !done; k++) {
            size_t len = strlen(entities[k][0]);
            if (strncmp(c, entities[k][0], len) == 0) text[count++] = (uint8_t)entities[k][1][0], c += len, done = 1;
        }
        if (!done) text[count++] = (uint8_t)*c++;
    }
    print_hex("ok", text, count);
    free(text), free(html), free(doc);
}
static void init(int argc, char **argv) { options = argc > 1 && strcmp(argv[1], "validate") == 0 ? CMARK_OPT_VALIDATE_UTF8 : CMARK_OPT_DEFAULT; }
#elif defined(REPRO_BSON)
#include <bson.h>
static int escape;
static void run(const uint8_t *s, size_t n) {
    if (!escape) { printf("valid %d\n", bson_utf8_validate((const char *)s, n, true)); return; }
    char *json = bson_utf8_escape_for_json((const char *)s, (ssize_t)n);
    if (json == NULL) printf("refused\n");
    else print_hex("ok", (const uint8_t *)json, strlen(json));
    bson_free(json);
}
static void init(int argc, char **argv) { escape = argc > 1 && strcmp(argv[1], "escape") == 0; }
#elif defined(REPRO_FRIBIDI)
#include <fribidi.h>
static int encode;
static void run(const uint8_t *s, size_t n) {
    if (!encode) {
        FriBidiChar *us = malloc((n + 1) * sizeof *us);
        FriBidiStrIndex count = fribidi_charset_to_unicode(FRIBIDI_CHAR_SET_UTF8, (const char *)s, (FriBidiStrIndex)n, us);
        printf("ok ");
        if (count == 0) printf("-");
        for (FriBidiStrIndex i = 0; i < count; i++) printf("%08lx", (unsigned long)us[i]);
        printf("\n");
        free(us);
        return;
    }
    size_t count = n / 4;  /* the input: code points, four bytes each, big-endian */
    FriBidiChar *us = malloc((count + 1) * sizeof *us);
    for (size_t i = 0; i < count; i++) us[i] = (FriBidiChar)s[4 * i] << 24 | s[4 * i + 1] << 16 | s[4 * i + 2] << 8 | s[4 * i + 3];
    char *out = malloc(6 * count + 1);
    FriBidiStrIndex length = fribidi_unicode_to_charset(FRIBIDI_CHAR_SET_UTF8, us, (FriBidiStrIndex)count, out);
    print_hex("ok", (const uint8_t *)out, (size_t)length);
    free(out), free(us);
}
static void init(int argc, char **argv) { encode = argc > 1 && strcmp(argv[1], "encode") == 0; }
#elif defined(REPRO_HARFBUZZ)
#include <hb.h>
/* hb_buffer_add_utf8 of the whole text, then the code points the buffer holds before shaping
 * (its documentation: invalid input becomes the buffer's replacement code point, U+FFFD). */
static void run(const uint8_t *s, size_t n) {
    hb_buffer_t *buffer = hb_buffer_create();
    hb_buffer_add_utf8(buffer, (const char *)s, (int)n, 0, (int)n);
    unsigned int count = 0;
    hb_glyph_info_t *infos = hb_buffer_get_glyph_infos(buffer, &count);
    printf("ok ");
    if (count == 0) printf("-");
    for (unsigned int i = 0; i < count; i++) printf("%08lx", (unsigned long)infos[i].codepoint);
    printf("\n");
    hb_buffer_destroy(buffer);
}
static void init(int argc, char **argv) { (void)argc, (void)argv; }
#endif

int main(int argc, char **argv) {
    init(argc, argv);
    char *line = NULL;
    size_t capacity = 0;
    while (getline(&line, &capacity, stdin) > 0) {
        size_t n = 0, hex = strcspn(line, "\r\n");
        uint8_t *s = malloc(hex / 2 ? hex / 2 : 1); /* exactly the input: a read past it is seen */
        for (size_t i = 0; i + 1 < hex && strcmp(line, "-\n") != 0; i += 2) sscanf(line + i, "%2hhx", &s[n++]);
        if (getenv("REPRO_GUARD") != NULL) {
            /* The input's last byte right before a page that cannot be read: a library that
             * reads past the end of its input dies of SIGSEGV there. */
            size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = (n + page - 1) / page + 1;
            uint8_t *region = mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            mprotect(region + (pages - 1) * page, page, PROT_NONE);
            uint8_t *guarded = region + (pages - 1) * page - n;
            memcpy(guarded, s, n);
            run(guarded, n);
        } else run(s, n);
        free(s);
        fflush(stdout);
    }
    free(line);
    return 0;
}
