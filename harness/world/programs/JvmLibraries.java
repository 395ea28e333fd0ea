// UTF-8 decoding and encoding inside the JVM libraries Debian ships, over utf8cert-protocol 1
// (harness/PROTOCOL.md), one per MODE; compiled and run with their jars (jvm_libraries.py):
//
//   java -cp DIR:JARS JvmLibraries MODE
//
//   jackson-core    decode: Jackson's JsonFactory.createParser(byte[]) on a JSON string (its
//                   UTF8StreamJsonParser), getText; a JsonParseException is a refusal (no
//                   offset). Not encode: its UTF8JsonGenerator writes a character above U+FFFF
//                   as two backslash-u escapes, no UTF-8 to judge (jackson-core issue 223)
//   jsoup           replace: Jsoup.parse(InputStream, "UTF-8", "") of an HTML document, the
//                   paragraph's wholeText() (it never refuses)
//   msgpack-java    replace: MessagePack.newDefaultUnpacker(byte[]).unpackString() of a msgpack
//                   str (its default: malformed input replaced); encode: packString, header off
//   guava-utf8      validate: com.google.common.base.Utf8.isWellFormed(byte[])
//
// A Java String is UTF-16: the handshake says so (strings=utf-16).
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.google.common.base.Utf8;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageBufferPacker;

public final class JvmLibraries {
    private static final String EMPTY = "-";
    private static final HexFormat HEX = HexFormat.of();
    private static final JsonFactory JSON = new JsonFactory();
    private static final Map<String, String> CAPABILITIES = Map.of(
            "jackson-core", "decode",
            "jsoup", "replace",
            "msgpack-java", "replace encode",
            "guava-utf8", "validate");

    private static byte[] bytesOf(String field) {
        return field.equals(EMPTY) ? new byte[0] : HEX.parseHex(field);
    }

    private static String hexOfBytes(byte[] bytes) {
        return bytes.length == 0 ? EMPTY : HEX.formatHex(bytes);
    }

    private static String hexOfText(String text) {
        StringBuilder hex = new StringBuilder();
        text.codePoints().forEach(c -> hex.append(String.format("%08x", c)));
        return hex.length() == 0 ? EMPTY : hex.toString();
    }

    private static String textOf(String field) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; !field.equals(EMPTY) && i < field.length(); i += 8) {
            text.appendCodePoint(Integer.parseUnsignedInt(field.substring(i, i + 8), 16));
        }
        return text.toString();
    }

    /** The bytes between `head` and `tail`: the document with the payload in its place. */
    private static byte[] around(String head, byte[] payload, String tail) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(payload);
        out.writeBytes(tail.getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    /** A JSON string of the bytes: ", \ and controls as \\u00XX, every other byte as it is. */
    private static byte[] jsonString(byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write('"');
        for (byte b : payload) {
            if ((b & 0xFF) < 0x20 || b == '"' || b == '\\') {
                out.writeBytes(String.format("\\u%04x", b & 0xFF).getBytes(StandardCharsets.US_ASCII));
            } else {
                out.write(b);
            }
        }
        out.write('"');
        return out.toByteArray();
    }

    private static String jacksonDecode(byte[] payload) throws IOException {
        try (JsonParser parser = JSON.createParser(jsonString(payload))) {
            if (parser.nextToken() != JsonToken.VALUE_STRING) return "crash not a string";
            String text = parser.getText();
            return "ok " + hexOfText(text);
        } catch (JsonProcessingException error) {
            return "refused - " + error.getOriginalMessage();
        }
    }

    private static String jsoupReplace(byte[] payload) throws IOException {
        ByteArrayOutputStream escaped = new ByteArrayOutputStream();
        for (byte b : payload) {
            switch (b) {
                case '<' -> escaped.writeBytes("&lt;".getBytes(StandardCharsets.US_ASCII));
                case '&' -> escaped.writeBytes("&amp;".getBytes(StandardCharsets.US_ASCII));
                case '>' -> escaped.writeBytes("&gt;".getBytes(StandardCharsets.US_ASCII));
                case '\r' -> escaped.writeBytes("&#13;".getBytes(StandardCharsets.US_ASCII));
                case 0 -> {
                    return "inapplicable HTML text cannot carry U+0000";
                }
                default -> escaped.write(b);
            }
        }
        byte[] document = around("<html><head><meta charset=\"utf-8\"></head><body><p>",
                escaped.toByteArray(), "</p></body></html>");
        Element paragraph = Jsoup.parse(new ByteArrayInputStream(document), "UTF-8", "").selectFirst("p");
        return "ok " + hexOfText(paragraph == null ? "" : paragraph.wholeText());
    }

    /** A msgpack str header: str8 (D9) up to 255 bytes, then str16 (DA) and str32 (DB). */
    private static byte[] msgpackStr(byte[] payload) {
        int n = payload.length;
        byte[] head = n < 256 ? new byte[] {(byte) 0xD9, (byte) n}
                : n < 65536 ? new byte[] {(byte) 0xDA, (byte) (n >> 8), (byte) n}
                : new byte[] {(byte) 0xDB, (byte) (n >> 24), (byte) (n >> 16), (byte) (n >> 8), (byte) n};
        byte[] out = Arrays.copyOf(head, head.length + n);
        System.arraycopy(payload, 0, out, head.length, n);
        return out;
    }

    private static String msgpackEncode(String text) throws IOException {
        MessageBufferPacker packer = MessagePack.newDefaultBufferPacker();
        packer.packString(text);
        byte[] packed = packer.toByteArray();
        int first = packed[0] & 0xFF;
        int head = first >= 0xA0 && first <= 0xBF ? 1 : first == 0xD9 ? 2 : first == 0xDA ? 3 : 5;
        return "ok " + hexOfBytes(Arrays.copyOfRange(packed, head, packed.length));
    }

    private static String answer(String mode, String line) {
        String[] fields = line.split(" ", -1);
        if (fields.length != 2) return "crash bad request";
        try {
            switch (mode + " " + fields[0]) {
                case "jackson-core decode":
                    return jacksonDecode(bytesOf(fields[1]));
                case "jsoup replace":
                    return jsoupReplace(bytesOf(fields[1]));
                case "msgpack-java replace":
                    String text = MessagePack.newDefaultUnpacker(msgpackStr(bytesOf(fields[1]))).unpackString();
                    return "ok " + hexOfText(text);
                case "msgpack-java encode":
                    return msgpackEncode(textOf(fields[1]));
                case "guava-utf8 validate":
                    return "ok " + Utf8.isWellFormed(bytesOf(fields[1]));
                default:
                    return "crash unknown request " + fields[0];
            }
        } catch (IOException | RuntimeException error) {
            return ("crash " + error).replaceAll("\\s+", " ");
        }
    }

    public static void main(String[] arguments) throws IOException {
        if (arguments.length != 1 || !CAPABILITIES.containsKey(arguments[0])) {
            System.err.println("usage: java JvmLibraries MODE (" + String.join(", ", CAPABILITIES.keySet()) + ")");
            System.exit(2);
        }
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        out.print("utf8cert-protocol 1 " + CAPABILITIES.get(arguments[0]) + " strings=utf-16\n");
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        for (String line; (line = in.readLine()) != null; ) {
            out.print(answer(arguments[0], line).replace('\n', ' ') + "\n");
            out.flush();
        }
    }
}
