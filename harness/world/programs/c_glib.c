/* GLib's UTF-8 functions over utf8cert-protocol 2, one codec per mode (c_protocol.h). */
#include <glib.h>

#include "c_protocol.h"

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

MODES_ARE(MODES)
