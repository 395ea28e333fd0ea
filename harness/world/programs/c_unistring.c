/* libunistring's UTF-8 functions over utf8cert-protocol 2, one codec per mode (c_protocol.h). */
#include <unistr.h>

#include "c_protocol.h"

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

MODES_ARE(MODES)
