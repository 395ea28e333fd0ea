/* libxml2's UTF-8 functions over utf8cert-protocol 2, one codec per mode (c_protocol.h). */
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xmlstring.h>

#include "c_protocol.h"

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

/* xmlCheckUTF8 takes a nul-terminated string, its only form: the bytes up to a first NUL. */
static void libxml2_check_utf8(const uint8_t *s, size_t n) {
    char *copy = malloc(n + 1);
    memcpy(copy, s, n), copy[n] = 0;
    ok_bool(xmlCheckUTF8((const xmlChar *)copy) != 0);
    free(copy);
}

/* xmlGetUTF8Char at each character: *len holds the bytes available, then the bytes it read; a
 * result below zero is a refusal there. */
static void libxml2_get_utf8_char(const uint8_t *s, size_t n) {
    uint32_t *values = malloc((n + 1) * sizeof *values);
    size_t count = 0;
    for (size_t i = 0; i < n;) {
        int length = (int)(n - i);
        int c = xmlGetUTF8Char(s + i, &length);
        if (c < 0 || length <= 0) {
            refused((long)i, "xmlGetUTF8Char: -1");
            free(values);
            return;
        }
        values[count++] = (uint32_t)c;
        i += (size_t)length;
    }
    ok_code_points(values, count);
    free(values);
}

static const Mode MODES[] = {
    {"libxml2-xmlcheckutf8", NULL, NULL, libxml2_check_utf8, NULL, NULL, ""},
    {"libxml2-xmlgetutf8char", libxml2_get_utf8_char, NULL, NULL, NULL, NULL, ""},
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

MODES_ARE(MODES)
