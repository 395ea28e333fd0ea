// Java's UTF-8 encoders beyond String.getBytes, over utf8cert-protocol 1 (harness/PROTOCOL.md),
// one per MODE:
//
//   java -cp DIR Utf8Encoders MODE
//
//   writeutf                encode: DataOutputStream.writeUTF, the bytes after its two-byte length
//                           (Java's "modified UTF-8": U+0000 as C0 80, a supplementary character
//                           as its two surrogates, three bytes each); over 65535 bytes it throws
//                           UTFDataFormatException: a limit of the format, so inapplicable
//   charsetencoder-report   encode: a CharsetEncoder with CodingErrorAction.REPORT (offset: the
//                           code point the error starts at)
//   charsetencoder-replace  encode: the same with CodingErrorAction.REPLACE
//
// A Java String is UTF-16: the handshake says so (strings=utf-16).
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UTFDataFormatException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

public final class Utf8Encoders {
    private static final String EMPTY = "-";
    private static final HexFormat HEX = HexFormat.of();

    private static String hexOfBytes(byte[] bytes) {
        return bytes.length == 0 ? EMPTY : HEX.formatHex(bytes);
    }

    private static String textOf(String field) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; !field.equals(EMPTY) && i < field.length(); i += 8) {
            text.appendCodePoint(Integer.parseUnsignedInt(field.substring(i, i + 8), 16));
        }
        return text.toString();
    }

    private static byte[] writeUtf(String text) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new DataOutputStream(out).writeUTF(text);
        byte[] framed = out.toByteArray();
        return Arrays.copyOfRange(framed, 2, framed.length);
    }

    /** Encodes with `action`; REPORT's error becomes "refused" at the code point it starts at. */
    private static String encoded(String text, CodingErrorAction action) {
        CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(action)
                .onUnmappableCharacter(action);
        CharBuffer in = CharBuffer.wrap(text);
        ByteBuffer out = ByteBuffer.allocate(4 * text.length() + 4);
        var result = encoder.encode(in, out, true);
        if (result.isError()) {
            int at = text.codePointCount(0, in.position());
            return ("refused " + at + " " + result).replaceAll("\\s+", " ");
        }
        encoder.flush(out);
        return "ok " + hexOfBytes(Arrays.copyOf(out.array(), out.position()));
    }

    private static String answer(String mode, String line) {
        String[] fields = line.split(" ", -1);
        if (!fields[0].equals("encode") || fields.length != 2) {
            return "crash unknown request " + fields[0];
        }
        String text = textOf(fields[1]);
        try {
            switch (mode) {
                case "writeutf":
                    return "ok " + hexOfBytes(writeUtf(text));
                case "charsetencoder-report":
                    return encoded(text, CodingErrorAction.REPORT);
                default:
                    return encoded(text, CodingErrorAction.REPLACE);
            }
        } catch (UTFDataFormatException error) {
            return ("inapplicable writeUTF writes at most 65535 bytes: " + error.getMessage()).replaceAll("\\s+", " ");
        } catch (IOException | RuntimeException error) {
            return ("crash " + error).replaceAll("\\s+", " ");
        }
    }

    public static void main(String[] arguments) throws IOException {
        var modes = java.util.List.of("writeutf", "charsetencoder-report", "charsetencoder-replace");
        if (arguments.length != 1 || !modes.contains(arguments[0])) {
            System.err.println("usage: java Utf8Encoders MODE (" + String.join(", ", modes) + ")");
            System.exit(2);
        }
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        out.print("utf8cert-protocol 1 encode strings=utf-16\n");
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        for (String line; (line = in.readLine()) != null; ) {
            out.print(answer(arguments[0], line) + "\n");
            out.flush();
        }
    }
}
