/* expat's UTF-8 functions over utf8cert-protocol 2, one codec per mode (c_protocol.h). */
#include <expat.h>

#include "c_protocol.h"

static Buffer text; /* the character data of the document, as expat gives it (UTF-8) */

static void XMLCALL on_characters(void *user, const XML_Char *s, int length) {
    (void)user;
    Buffer saved = out;
    out = text; /* put() appends to `out` */
    put(s, (size_t)length);
    text = out, out = saved;
}

/* The payload as the text of <a>...</a>, parsed whole by XML_Parse; an error's offset is
 * XML_GetCurrentByteIndex, mapped back to the payload. */
static void expat_decode(const uint8_t *s, size_t n) {
    Wrapped w;
    if (wrap_xml(s, n, "<a>", "</a>", &w) != 0) return;
    XML_Parser parser = XML_ParserCreate(NULL);
    XML_SetCharacterDataHandler(parser, on_characters);
    text.length = 0;
    if (XML_Parse(parser, (const char *)w.document, (int)w.length, 1) == XML_STATUS_ERROR) {
        long at = payload_offset(&w, (long)XML_GetCurrentByteIndex(parser));
        refused(at, XML_ErrorString(XML_GetErrorCode(parser)));
    } else read_utf8((const uint8_t *)text.at, text.length);
    XML_ParserFree(parser);
    unwrap(&w);
}

static int expat_feed(void *parser, const uint8_t *bytes, size_t length, int last) {
    return XML_Parse(parser, (const char *)bytes, (int)length, last) == XML_STATUS_ERROR;
}

/* expat's streaming: XML_Parse fed the document in pieces cut where the chunks are cut;
 * XML_GetCurrentByteIndex counts from the start of the document. */
static void expat_chunks(uint8_t **chunks, const size_t *lengths, size_t count, int final_empty) {
    size_t n;
    uint8_t *payload = joined(chunks, lengths, count, &n);
    Wrapped w;
    if (wrap_xml(payload, n, "<a>", "</a>", &w) != 0) return free(payload);
    XML_Parser parser = XML_ParserCreate(NULL);
    XML_SetCharacterDataHandler(parser, on_characters);
    text.length = 0;
    if (feed_document(&w, lengths, count, final_empty, expat_feed, parser)) {
        long at = payload_offset(&w, (long)XML_GetCurrentByteIndex(parser));
        refused(at, XML_ErrorString(XML_GetErrorCode(parser)));
    } else read_utf8((const uint8_t *)text.at, text.length);
    XML_ParserFree(parser);
    unwrap(&w);
    free(payload);
}

static const Mode MODES[] = {
    {"expat", expat_decode, NULL, NULL, NULL, expat_chunks, "incremental=strict"},
};
static int setup(void) {
    text.at = malloc(text.capacity = 64);
    return text.at == NULL;
}

MODES_ARE(MODES)
