/* utf8proc's UTF-8 functions over utf8cert-protocol 2, one codec per mode (c_protocol.h). */
#include <utf8proc.h>

#include "c_protocol.h"

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

MODES_ARE(MODES)
