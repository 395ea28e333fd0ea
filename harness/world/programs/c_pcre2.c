/* PCRE2's UTF-8 functions over utf8cert-protocol 2, one codec per mode (c_protocol.h). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "c_protocol.h"

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

MODES_ARE(MODES)
