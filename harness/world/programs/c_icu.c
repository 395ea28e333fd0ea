/* ICU4C's UTF-8 functions over utf8cert-protocol 2, one codec per mode (c_protocol.h); the
 * ucnv converters also answer `reuse` requests (one converter, stream after stream). */
#include <unicode/ucnv.h>
#include <unicode/ustring.h>
#include <unicode/utf8.h>

#include "c_protocol.h"

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
 * invalid), the SKIP one (ill-formed bytes dropped) or the default, SUBSTITUTE (U+FFFD). */
static void icu_converter(uint8_t **chunks, const size_t *lengths, size_t count, int final_empty,
                          UConverterToUCallback callback);

/* Feeds `converter` the chunks (the last, or an empty one, with flush when `flush`) and answers
 * what it gave when `answering`; returns its status. */
static UErrorCode icu_fed(UConverter *converter, uint8_t **chunks, const size_t *lengths,
                          size_t count, int final_empty, int flush, int answering) {
    UErrorCode status = U_ZERO_ERROR;
    size_t total = 0;
    for (size_t i = 0; i < count; i++) total += lengths[i];
    UChar *units = malloc((total + 8) * sizeof *units), *target = units;
    long fed = 0;
    size_t feeds = flush ? count + (final_empty || count == 0) : count;
    for (size_t i = 0; i < feeds && U_SUCCESS(status); i++) {
        const char *source = i < count ? (const char *)chunks[i] : "";
        const char *start = source, *limit = source + (i < count ? lengths[i] : 0);
        UBool last = flush && i + 1 == feeds;
        ucnv_toUnicode(converter, &target, units + total + 8, &source, limit, NULL, last, &status);
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
    if (answering) icu_answer(units, (int32_t)(target - units), status, offset);
    free(units);
    return status;
}

static UConverter *icu_open(UConverterToUCallback callback) {
    UErrorCode status = U_ZERO_ERROR;
    UConverter *converter = ucnv_open("UTF-8", &status);
    if (callback) ucnv_setToUCallBack(converter, callback, NULL, NULL, NULL, &status);
    return converter;
}

static void icu_converter(uint8_t **chunks, const size_t *lengths, size_t count, int final_empty,
                          UConverterToUCallback callback) {
    UConverter *converter = icu_open(callback);
    icu_fed(converter, chunks, lengths, count, final_empty, 1, 1);
    ucnv_close(converter);
}

/* One converter fed each earlier stream of a `reuse` request (its answer dropped), then, after
 * `next`, the next stream as ICU starts one (a flush has reset it), after `reset`,
 * ucnv_resetToUnicode; the last stream answered as `incremental` answers it. */
static void icu_reused(char **fields, size_t count, UConverterToUCallback callback) {
    UConverter *converter = icu_open(callback);
    uint8_t **data = calloc(count + 1, sizeof *data);
    size_t *lengths = calloc(count + 1, sizeof *lengths), start = 0;
    int bad = 0;
    for (size_t i = 0; i <= count && !bad; i++) {
        int parting = i < count && (strcmp(fields[i], "next") == 0 || strcmp(fields[i], "reset") == 0);
        if (i < count && !parting) continue;
        size_t chunks = i - start - 1;
        for (size_t j = 0; j < chunks; j++) bad |= (data[j] = bytes_of(fields[start + 1 + j], &lengths[j])) == NULL;
        if (!bad && i == count) icu_fed(converter, data, lengths, chunks, strcmp(fields[start], "1") == 0, 1, 1);
        else if (!bad) icu_fed(converter, data, lengths, chunks, 0, strcmp(fields[start], "0") == 0, 0);
        if (parting && strcmp(fields[i], "reset") == 0) ucnv_resetToUnicode(converter);
        for (size_t j = 0; j < chunks; j++) free(data[j]), data[j] = NULL;
        start = i + 1;
    }
    if (bad) answer_word("crash", "bad hex");
    free(data), free(lengths);
    ucnv_close(converter);
}

static void icu_stop_reused(char **fields, size_t count) { icu_reused(fields, count, UCNV_TO_U_CALLBACK_STOP); }
static void icu_substitute_reused(char **fields, size_t count) { icu_reused(fields, count, NULL); }
static void icu_skip_reused(char **fields, size_t count) { icu_reused(fields, count, UCNV_TO_U_CALLBACK_SKIP); }

static void icu_stop_chunks(uint8_t **chunks, const size_t *lengths, size_t count, int final_empty) {
    icu_converter(chunks, lengths, count, final_empty, UCNV_TO_U_CALLBACK_STOP);
}

static void icu_substitute_chunks(uint8_t **chunks, const size_t *lengths, size_t count, int final_empty) {
    icu_converter(chunks, lengths, count, final_empty, NULL);
}

static void icu_skip_chunks(uint8_t **chunks, const size_t *lengths, size_t count, int final_empty) {
    icu_converter(chunks, lengths, count, final_empty, UCNV_TO_U_CALLBACK_SKIP);
}

static void icu_stop(const uint8_t *s, size_t n) {
    uint8_t *chunk = (uint8_t *)s;
    icu_converter(&chunk, &n, 1, 0, UCNV_TO_U_CALLBACK_STOP);
}

static void icu_substitute(const uint8_t *s, size_t n) {
    uint8_t *chunk = (uint8_t *)s;
    icu_converter(&chunk, &n, 1, 0, NULL);
}

static void icu_skip(const uint8_t *s, size_t n) {
    uint8_t *chunk = (uint8_t *)s;
    icu_converter(&chunk, &n, 1, 0, UCNV_TO_U_CALLBACK_SKIP);
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
    {"icu-ucnv-stop", icu_stop, NULL, NULL, NULL, icu_stop_chunks, "strings=utf-16 incremental=strict",
     icu_stop_reused},
    {"icu-ucnv-substitute", NULL, icu_substitute, NULL, NULL, icu_substitute_chunks,
     "strings=utf-16 incremental=replace", icu_substitute_reused},
    {"icu-ucnv-skip", NULL, icu_skip, NULL, NULL, icu_skip_chunks, "strings=utf-16 incremental=replace",
     icu_skip_reused},
};
static int setup(void) { return 0; }

MODES_ARE(MODES)
