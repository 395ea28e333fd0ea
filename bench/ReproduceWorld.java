// Direct reproducers of the world's JVM findings (issue 43): each library called as its
// documentation shows, with none of utf8cert's code. Run by bench/reproduce_world.py:
//
//   java -cp DIR:JARS ReproduceWorld MODE
//
// reads one hex input a line on stdin and writes `ok HEX` (the UTF-8 of the String the library
// returned, lone surrogates written in their three-byte form so that they are seen) or
// `refused`. Modes: jackson (JsonFactory.createParser(byte[]) of a JSON string, getText),
// jsoup (Jsoup.parse(InputStream, "UTF-8", "") of a paragraph, its wholeText()),
// msgpack-unpack (MessagePack.newDefaultUnpacker(byte[]).unpackString() of a msgpack str8/16/32)
// and msgpack-pack (MessagePack.newDefaultBufferPacker().packString of the String built from the
// input's code points, 8 hex digits each, a lone surrogate kept; `ok` the str's body).
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.jsoup.Jsoup;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;

public final class ReproduceWorld {
    /** The UTF-8 of each UTF-16 code unit or pair, a lone surrogate in its 3-byte form. */
    private static byte[] bytesOf(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        text.codePoints().forEach(c -> {
            if (c < 0x80) out.write(c);
            else if (c < 0x800) { out.write(0xC0 | c >> 6); out.write(0x80 | c & 0x3F); }
            else if (c < 0x10000) { out.write(0xE0 | c >> 12); out.write(0x80 | c >> 6 & 0x3F); out.write(0x80 | c & 0x3F); }
            else { out.write(0xF0 | c >> 18); out.write(0x80 | c >> 12 & 0x3F); out.write(0x80 | c >> 6 & 0x3F); out.write(0x80 | c & 0x3F); }
        });
        return out.toByteArray();
    }

    private static String jackson(byte[] payload) throws IOException {
        ByteArrayOutputStream doc = new ByteArrayOutputStream();
        doc.write('"');
        for (byte b : payload) {
            if ((b & 0xFF) < 0x20 || b == '"' || b == '\\') doc.writeBytes(String.format("\\u%04x", b & 0xFF).getBytes(StandardCharsets.US_ASCII));
            else doc.write(b);
        }
        doc.write('"');
        try (JsonParser parser = new JsonFactory().createParser(doc.toByteArray())) {
            parser.nextToken();
            return "ok " + HexFormat.of().formatHex(bytesOf(parser.getText()));
        } catch (JsonProcessingException error) {
            return "refused";
        }
    }

    private static String jsoup(byte[] payload) throws IOException {
        String head = "<html><head><meta charset=\"utf-8\"></head><body><p>", tail = "</p></body></html>";
        ByteArrayOutputStream doc = new ByteArrayOutputStream();
        doc.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
        for (byte b : payload) {
            if (b == '<') doc.writeBytes("&lt;".getBytes(StandardCharsets.US_ASCII));
            else if (b == '&') doc.writeBytes("&amp;".getBytes(StandardCharsets.US_ASCII));
            else if (b == '>') doc.writeBytes("&gt;".getBytes(StandardCharsets.US_ASCII));
            else if (b == '\r') doc.writeBytes("&#13;".getBytes(StandardCharsets.US_ASCII));
            else doc.write(b);
        }
        doc.writeBytes(tail.getBytes(StandardCharsets.US_ASCII));
        String text = Jsoup.parse(new ByteArrayInputStream(doc.toByteArray()), "UTF-8", "").selectFirst("p").wholeText();
        return "ok " + HexFormat.of().formatHex(bytesOf(text));
    }

    private static String msgpackUnpack(byte[] payload) throws IOException {
        int n = payload.length;
        ByteArrayOutputStream doc = new ByteArrayOutputStream();
        if (n < 256) doc.writeBytes(new byte[] {(byte) 0xD9, (byte) n});
        else if (n < 65536) doc.writeBytes(new byte[] {(byte) 0xDA, (byte) (n >> 8), (byte) n});
        else doc.writeBytes(new byte[] {(byte) 0xDB, (byte) (n >> 24), (byte) (n >> 16), (byte) (n >> 8), (byte) n});
        doc.writeBytes(payload);
        String text = MessagePack.newDefaultUnpacker(doc.toByteArray()).unpackString();
        return "ok " + HexFormat.of().formatHex(bytesOf(text));
    }

    private static String msgpackPack(byte[] points) throws IOException {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i + 3 < points.length; i += 4) {
            int c = (points[i] & 0xFF) << 24 | (points[i + 1] & 0xFF) << 16 | (points[i + 2] & 0xFF) << 8 | points[i + 3] & 0xFF;
            if (c < 0x10000) text.append((char) c);
            else text.appendCodePoint(c);
        }
        MessageBufferPacker packer = MessagePack.newDefaultBufferPacker();
        packer.packString(text.toString());
        byte[] packed = packer.toByteArray();
        int first = packed[0] & 0xFF;
        int head = first >= 0xA0 && first <= 0xBF ? 1 : first == 0xD9 ? 2 : first == 0xDA ? 3 : 5;
        return "ok " + HexFormat.of().formatHex(java.util.Arrays.copyOfRange(packed, head, packed.length));
    }

    public static void main(String[] arguments) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        for (String line; (line = in.readLine()) != null; ) {
            byte[] payload = line.equals("-") ? new byte[0] : HexFormat.of().parseHex(line);
            String answer = switch (arguments[0]) {
                case "jackson" -> jackson(payload);
                case "msgpack-unpack" -> msgpackUnpack(payload);
                case "msgpack-pack" -> msgpackPack(payload);
                default -> jsoup(payload);
            };
            System.out.println(answer.equals("ok ") ? "ok -" : answer);
        }
    }
}
