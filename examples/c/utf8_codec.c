/* A template for certifying your own C UTF-8 codec with utf8cert: copy this file, replace the
 * bodies of my_decode, my_validate and my_encode with calls to your codec, drop from
 * CAPABILITIES what it does not offer, then build and check it:
 *
 *   gcc -O2 -o utf8_codec utf8_codec.c        (add your codec's sources or -l flags)
 *   utf8cert check "cmd:./utf8_codec"
 *
 * Everything below those two functions speaks utf8cert-protocol 2 (harness/PROTOCOL.md): a
 * handshake line naming the capabilities, then one answer line per request line, each starting
 * with the request's id. Your codec has a replacing decoder too? Add `replace` to CAPABILITIES
 * and answer its requests in answer() as `decode` is answered (code points, U+FFFD included).
 * A library that returns ill-formed UTF-8 as its text: read its bytes by their bits into code
 * points (an overlong or a surrogate keeps its value), so that utf8cert classifies what it let
 * through (docs/adapters.md). As shipped, the codec is small and conformant: the check passes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What your codec offers: drop what it does not (any of the three, in any subset). */
#define CAPABILITIES "decode validate encode"
#define HANDSHAKE "utf8cert-protocol 2 " CAPABILITIES

/* Strict decoding. Write the code points of `s[0..n)` to `out` (room for n), their count to
 * *count, and return 0; or, for ill-formed input, return -1 with *error_at the offset of the
 * first offending byte (or -1 when your codec does not say where). */
static int my_decode(const uint8_t *s, size_t n, uint32_t *out, size_t *count, long *error_at) {
    *count = 0;
    for (size_t i = 0; i < n;) {
        uint8_t lead = s[i];
        size_t length = lead < 0x80 ? 1 : lead < 0xC2 ? 0 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3
                                                                    : lead < 0xF5 ? 4 : 0;
        /* RFC 3629 §4: the second byte's range after E0, ED, F0, F4 (no overlongs, surrogates,
         * or values above U+10FFFF); 80..BF otherwise. */
        uint8_t low = lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80;
        uint8_t high = lead == 0xED ? 0x9F : lead == 0xF4 ? 0x8F : 0xBF;
        uint32_t value = length == 1 ? lead : lead & (0x7F >> length);
        for (size_t k = 1; length && k < length; k++) {
            uint8_t byte = i + k < n ? s[i + k] : 0;
            if (byte < (k == 1 ? low : 0x80) || byte > (k == 1 ? high : 0xBF)) length = 0;
            value = value << 6 | (byte & 0x3F);
        }
        if (length == 0) {
            *error_at = (long)i;
            return -1;
        }
        out[(*count)++] = value;
        i += length;
    }
    return 0;
}

/* Validation: return 1 when `s[0..n)` is well-formed UTF-8, 0 when it is not. As shipped, it
 * asks my_decode; a codec with a validator of its own calls it here. */
static int my_validate(const uint8_t *s, size_t n) {
    uint32_t *text = malloc((n + 1) * sizeof *text);
    size_t count = 0;
    long error_at = -1;
    int valid = my_decode(s, n, text, &count, &error_at) == 0;
    free(text);
    return valid;
}

/* Strict encoding. Write the UTF-8 of `values[0..n)` to `out` (room for 4 bytes a value), its
 * length to *length, and return 0; or, for a value that is not a Unicode scalar value, return -1
 * with *error_at its index. */
static int my_encode(const uint32_t *values, size_t n, uint8_t *out, size_t *length, long *error_at) {
    *length = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = values[i];
        if ((c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) {
            *error_at = (long)i;
            return -1;
        }
        static const uint8_t first_bits[] = {0x00, 0xC0, 0xE0, 0xF0};
        size_t extra = c < 0x80 ? 0 : c < 0x800 ? 1 : c < 0x10000 ? 2 : 3;
        out[(*length)++] = (uint8_t)(first_bits[extra] | c >> 6 * extra);
        for (size_t k = extra; k > 0; k--) out[(*length)++] = (uint8_t)(0x80 | (c >> 6 * (k - 1) & 0x3F));
    }
    return 0;
}

/* ---- the protocol: nothing to change below ------------------------------------------------ */

/* Return the bytes of a hex field (`-` is none), their count in *n; NULL when it is not hex. */
static uint8_t *unhex(const char *field, size_t *n) {
    size_t digits = strcmp(field, "-") == 0 ? 0 : strlen(field);
    uint8_t *bytes = malloc(digits / 2 + 1);
    for (size_t i = 0; bytes && i + 1 < digits; i += 2) {
        unsigned value;
        if (sscanf(field + i, "%2x", &value) != 1) return free(bytes), NULL;
        bytes[i / 2] = (uint8_t)value;
    }
    *n = digits / 2;
    return digits % 2 ? free(bytes), NULL : bytes;
}

static FILE *out; /* where answers go: stdout, or the library's answer text */

static void answer(const char *id, const char *operation, const char *field) {
    size_t n = 0;
    long error_at = -1;
    uint8_t *data = unhex(field, &n);
    if (data == NULL) {
        fprintf(out, "%s crash bad hex\n", id);
    } else if (strcmp(operation, "decode") == 0) {
        uint32_t *text = malloc((n + 1) * sizeof *text);
        size_t count = 0;
        if (my_decode(data, n, text, &count, &error_at) == 0) {
            fprintf(out, "%s ok %s", id, count ? "" : "-");
            for (size_t i = 0; i < count; i++) fprintf(out, "%08lx", (unsigned long)text[i]);
            fprintf(out, "\n");
        } else if (error_at >= 0) fprintf(out, "%s refused %ld ill-formed UTF-8\n", id, error_at);
        else fprintf(out, "%s refused - ill-formed UTF-8\n", id);
        free(text);
    } else if (strcmp(operation, "validate") == 0) {
        fprintf(out, "%s ok %s\n", id, my_validate(data, n) ? "true" : "false");
    } else if (strcmp(operation, "encode") == 0 && n % 4 == 0) {
        uint32_t *values = malloc((n / 4 + 1) * sizeof *values);
        for (size_t i = 0; i < n / 4; i++)
            values[i] = (uint32_t)data[4 * i] << 24 | (uint32_t)data[4 * i + 1] << 16
                      | (uint32_t)data[4 * i + 2] << 8 | data[4 * i + 3];
        uint8_t *bytes = malloc(n + 1);
        size_t length = 0;
        if (my_encode(values, n / 4, bytes, &length, &error_at) == 0) {
            fprintf(out, "%s ok %s", id, length ? "" : "-");
            for (size_t i = 0; i < length; i++) fprintf(out, "%02x", bytes[i]);
            fprintf(out, "\n");
        } else fprintf(out, "%s refused %ld not a Unicode scalar value\n", id, error_at);
        free(values), free(bytes);
    } else {
        fprintf(out, "%s crash unknown request %s\n", id, operation);
    }
    free(data);
}

#ifdef UTF8CERT_SHARED
/* Built as a shared library instead (utf8cert fuzz native:./utf8_codec.so, docs/fuzzing.md):
 *
 *   clang -shared -fPIC -g -O1 -fsanitize=fuzzer-no-link,address -DUTF8CERT_SHARED \
 *         -o utf8_codec.so utf8_codec.c
 *
 * the same protocol through two functions: each request line in, its answer line out. */
const char *utf8cert_handshake(const char *argument) {
    (void)argument;
    return HANDSHAKE;
}

const char *utf8cert_answer(const char *request) {
    static char *text = NULL;
    static size_t size = 0;
    char *line = strdup(request);
    free(text);
    out = open_memstream(&text, &size);
    char *id = strtok(line, " "), *operation = strtok(NULL, " "), *field = strtok(NULL, " ");
    if (id && operation && field) answer(id, operation, field);
    else fprintf(out, "%s crash bad request\n", id ? id : "0");
    fclose(out);
    free(line);
    text[strcspn(text, "\n")] = '\0';
    return text;
}
#else
int main(void) {
    out = stdout;
    printf(HANDSHAKE "\n");
    fflush(stdout);
    char *line = NULL;
    size_t size = 0;
    while (getline(&line, &size, stdin) > 0) {
        line[strcspn(line, "\r\n")] = '\0';
        char *id = strtok(line, " "), *operation = strtok(NULL, " "), *field = strtok(NULL, " ");
        if (id && operation && field) answer(id, operation, field);
        else printf("%s crash bad request\n", id ? id : "0");
        fflush(stdout); /* every answer out before waiting for the next request */
    }
    free(line);
    return 0;
}
#endif
