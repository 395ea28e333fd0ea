// A utf8cert-protocol 2 program in Java (harness/PROTOCOL.md), to copy for your own codec:
//
//   javac -d build examples/java/Utf8Template.java
//   utf8cert check "cmd:java -cp build Utf8Template"
//
// It wraps Java's own UTF-8 CharsetDecoder and CharsetEncoder; put your codec's calls in the
// methods marked YOUR CODEC, and drop from CAPABILITIES what it does not offer. Throw Refusal to
// refuse (with the offset of the first offending byte, or of the code point for encode; -1 when
// your codec does not say); anything else thrown is reported as a crash.
//
// A Java String is UTF-16: the handshake says so (strings=utf-16), and utf8cert then never asks
// to encode what no String holds (a value above U+10FFFF, a surrogate pair kept apart).
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

public final class Utf8Template {
    static final String CAPABILITIES = "decode replace validate encode incremental";

    static final class Refusal extends Exception {
        final long offset;

        Refusal(long offset, String message) {
            super(message);
            this.offset = offset;
        }
    }

    static CharsetDecoder decoder(CodingErrorAction action) {
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(action).onUnmappableCharacter(action);
    }

    // YOUR CODEC: strict decoding (REPORT), U+FFFD replacement (REPLACE), and the same fed in
    // chunks: every chunk but the last with endOfInput false, the bytes it leaves carried over.
    static String decode(List<byte[]> chunks, CodingErrorAction action) throws Refusal {
        CharsetDecoder decoder = decoder(action);
        StringBuilder text = new StringBuilder();
        byte[] carried = new byte[0];
        long consumed = 0; // bytes of all the chunks read before `carried`
        for (int i = 0; i < chunks.size(); i++) {
            ByteBuffer in = ByteBuffer.allocate(carried.length + chunks.get(i).length);
            in.put(carried).put(chunks.get(i)).flip();
            CharBuffer out = CharBuffer.allocate(2 * in.remaining() + 2);
            boolean last = i == chunks.size() - 1;
            CoderResult result = decoder.decode(in, out, last);
            if (result.isError()) {
                throw new Refusal(consumed + in.position(), result.toString());
            }
            if (last) {
                decoder.flush(out);
            }
            text.append(out.flip());
            consumed += in.position();
            carried = new byte[in.remaining()];
            in.get(carried);
        }
        return text.toString();
    }

    // YOUR CODEC: strict encoding; the offset of a refusal counts code points.
    static byte[] encode(String text) throws Refusal {
        CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        CharBuffer in = CharBuffer.wrap(text);
        ByteBuffer out = ByteBuffer.allocate(4 * text.length() + 4);
        CoderResult result = encoder.encode(in, out, true);
        if (result.isError()) {
            throw new Refusal(text.codePointCount(0, in.position()), result.toString());
        }
        encoder.flush(out);
        return Arrays.copyOf(out.array(), out.position());
    }

    // The protocol's fields: bytes as hex, text as eight hex digits per code point, "-" for none.
    static final HexFormat HEX = HexFormat.of();

    static byte[] bytesOf(String field) {
        return field.equals("-") ? new byte[0] : HEX.parseHex(field);
    }

    static String hexOfBytes(byte[] bytes) {
        return bytes.length == 0 ? "-" : HEX.formatHex(bytes);
    }

    static String hexOfText(String text) { // codePoints() joins a pair, keeps a lone surrogate
        StringBuilder hex = new StringBuilder();
        text.codePoints().forEach(value -> hex.append(String.format("%08x", value)));
        return hex.length() == 0 ? "-" : hex.toString();
    }

    static String textOf(String field) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; !field.equals("-") && i < field.length(); i += 8) {
            text.appendCodePoint(Integer.parseUnsignedInt(field.substring(i, i + 8), 16));
        }
        return text.toString();
    }

    static String answer(String operation, String[] fields) {
        try {
            switch (operation) {
                case "decode":
                    return "ok " + hexOfText(decode(List.of(bytesOf(fields[0])), CodingErrorAction.REPORT));
                case "replace":
                    return "ok " + hexOfText(decode(List.of(bytesOf(fields[0])), CodingErrorAction.REPLACE));
                case "validate":
                    try {
                        decode(List.of(bytesOf(fields[0])), CodingErrorAction.REPORT);
                        return "ok true";
                    } catch (Refusal refusal) {
                        return "ok false";
                    }
                case "encode":
                    return "ok " + hexOfBytes(encode(textOf(fields[0])));
                case "incremental": {
                    List<byte[]> chunks = new ArrayList<>();
                    for (int i = 1; i < fields.length; i++) {
                        chunks.add(bytesOf(fields[i]));
                    }
                    if (fields[0].equals("1") || chunks.isEmpty()) {
                        chunks.add(new byte[0]);
                    }
                    return "ok " + hexOfText(decode(chunks, CodingErrorAction.REPORT));
                }
                default:
                    return "crash unknown request " + operation;
            }
        } catch (Refusal refusal) {
            String offset = refusal.offset < 0 ? "-" : Long.toString(refusal.offset);
            return ("refused " + offset + " " + refusal.getMessage()).replaceAll("\\s+", " ");
        } catch (RuntimeException error) {
            return ("crash " + error).replaceAll("\\s+", " ");
        }
    }

    public static void main(String[] arguments) throws Exception {
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        // The mode of the incremental decoder only when it is offered (PROTOCOL.md).
        boolean incremental = Arrays.asList(CAPABILITIES.split(" ")).contains("incremental");
        out.print("utf8cert-protocol 2 " + CAPABILITIES + " strings=utf-16"
                + (incremental ? " incremental=strict" : "") + "\n");
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        for (String line; (line = in.readLine()) != null; ) {
            String[] words = line.split(" ", -1); // the id, the operation, its fields
            String[] fields = Arrays.copyOfRange(words, 2, words.length);
            out.print(words[0] + " " + answer(words[1], fields) + "\n");
            out.flush();
        }
    }
}
