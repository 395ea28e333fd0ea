// Java's own UTF-8 codecs over utf8cert-protocol 1 (harness/PROTOCOL.md), one per MODE:
//
//   java -cp DIR Utf8Codecs MODE
//
//   new-string              replace: new String(bytes, UTF_8), a replacing decoder (it never
//                           refuses, so it fills the replace slot, not the strict one)
//   charsetdecoder-report   decode, incremental: a CharsetDecoder with CodingErrorAction.REPORT
//                           (offset: the input position at the error; `end=`: that plus the
//                           length of the malformed input, CoderResult.length()); streamed with
//                           endOfInput false until the final chunk, unread bytes carried over,
//                           the code points returned after each call sent as `returned=`
//   charsetdecoder-replace  replace, incremental: the same with CodingErrorAction.REPLACE
//                           (both also answer `reuse` requests: handshake word reuse=yes)
//   readutf                 decode: DataInputStream.readUTF on the bytes after a two-byte length
//                           (Java's "modified UTF-8"; inputs over 65535 bytes are inapplicable);
//                           its message says only "around" where, so no offset is reported
//   getbytes                encode: String.getBytes(UTF_8)
//
// A Java String is UTF-16: the handshake says so (strings=utf-16), and utf8cert then never asks
// to encode what no String holds (a value above U+10FFFF; a high surrogate followed by a low
// one, which a String holds as the character they encode).
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UTFDataFormatException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

public final class Utf8Codecs {
    private static final String EMPTY = "-";
    private static final HexFormat HEX = HexFormat.of();

    /** A refusal: the offset of the first offending byte (-1 when the codec gives none), and the
     *  answer's optional fields that say more (PROTOCOL.md: `end=`, `returned=`), or "". */
    private static final class Refusal extends Exception {
        final long offset;
        final String fields;

        Refusal(long offset, String message) {
            this(offset, "", message);
        }

        Refusal(long offset, String fields, String message) {
            super(message);
            this.offset = offset;
            this.fields = fields;
        }
    }

    /** Returns the optional field `returned=` of a decoding in more than one call: the code
     *  points returned in all after each call ("-" for none), then a space; "" for one call. */
    private static String returnedField(List<Integer> counts, int calls) {
        if (calls < 2) {
            return "";
        }
        StringBuilder field = new StringBuilder("returned=");
        for (int i = 0; i < counts.size(); i++) {
            field.append(i == 0 ? "" : ",").append(counts.get(i));
        }
        return (counts.isEmpty() ? "returned=-" : field.toString()) + " ";
    }

    private static final class Inapplicable extends Exception {
        Inapplicable(String message) {
            super(message);
        }
    }

    private static byte[] bytesOf(String field) {
        return field.equals(EMPTY) ? new byte[0] : HEX.parseHex(field);
    }

    private static String hexOfBytes(byte[] bytes) {
        return bytes.length == 0 ? EMPTY : HEX.formatHex(bytes);
    }

    /** Eight hex digits per code point; codePoints() keeps a lone surrogate as one value. */
    private static String hexOfText(String text) {
        StringBuilder hex = new StringBuilder();
        text.codePoints().forEach(value -> hex.append(String.format("%08x", value)));
        return hex.length() == 0 ? EMPTY : hex.toString();
    }

    private static String textOf(String field) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; !field.equals(EMPTY) && i < field.length(); i += 8) {
            text.appendCodePoint(Integer.parseUnsignedInt(field.substring(i, i + 8), 16));
        }
        return text.toString();
    }

    /** Returns the answer's value to a decoding fed `chunks`, after its field `returned=`. */
    private static String streamed(CodingErrorAction action, boolean finalEmpty, List<byte[]> chunks)
            throws Refusal {
        return streamed(newDecoder(action), finalEmpty, chunks, true);
    }

    private static CharsetDecoder newDecoder(CodingErrorAction action) {
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(action).onUnmappableCharacter(action);
    }

    /** Returns the answer's value to `decoder` fed `chunks`, the last with endOfInput when the
     *  stream `ends` (else every one without, the stream left open). */
    private static String streamed(CharsetDecoder decoder, boolean finalEmpty, List<byte[]> chunks, boolean ends)
            throws Refusal {
        List<byte[]> feeds = new ArrayList<>(chunks);
        if (ends && (finalEmpty || feeds.isEmpty())) {
            feeds.add(new byte[0]);
        }
        StringBuilder text = new StringBuilder();
        List<Integer> returned = new ArrayList<>(); // code points in all after each call
        byte[] carried = new byte[0];
        long consumed = 0; // bytes of the whole input the decoder has read before `carried`
        for (int i = 0; i < feeds.size(); i++) {
            boolean last = ends && i == feeds.size() - 1;
            ByteBuffer in = ByteBuffer.allocate(carried.length + feeds.get(i).length);
            in.put(carried).put(feeds.get(i)).flip();
            CharBuffer out = CharBuffer.allocate(2 * in.remaining() + 2);
            CoderResult result = decoder.decode(in, out, last);
            if (result.isError()) {
                // The decoder says how long the malformed input is: the error's end (`end=`).
                long offset = consumed + in.position();
                String fields = "end=" + (offset + result.length()) + " ";
                throw new Refusal(offset, fields + returnedField(returned, feeds.size()), result.toString());
            }
            if (last) {
                decoder.flush(out);
            }
            text.append(out.flip());
            returned.add(text.codePointCount(0, text.length()));
            consumed += in.position();
            carried = new byte[in.remaining()];
            in.get(carried);
        }
        return returnedField(returned, feeds.size()) + hexOfText(text.toString());
    }

    /** Returns the answer to `reuse F BYTES... next|reset ... F BYTES...` (PROTOCOL.md): one
     *  decoder fed each earlier stream (F 0: ended, -: left open), then the last. Java documents
     *  that a decoder is reset() before each new decoding operation, so both `next` and `reset`
     *  call it. */
    private static String reused(CodingErrorAction action, String[] fields) throws Refusal {
        CharsetDecoder decoder = newDecoder(action);
        List<byte[]> chunks = new ArrayList<>();
        String flag = null;
        for (int i = 1; i < fields.length; i++) {
            if (fields[i].equals("next") || fields[i].equals("reset")) {
                try {
                    streamed(decoder, false, chunks, flag.equals("0"));
                } catch (Refusal refusal) {
                    // the error the earlier stream was chosen for: what comes after is asked
                }
                decoder.reset();
                chunks.clear();
                flag = null;
            } else if (flag == null) {
                flag = fields[i];
            } else {
                chunks.add(bytesOf(fields[i]));
            }
        }
        return streamed(decoder, flag.equals("1"), chunks, true);
    }

    private static String readUtf(byte[] data) throws Refusal, Inapplicable {
        if (data.length > 0xFFFF) {
            throw new Inapplicable("readUTF reads at most 65535 bytes");
        }
        ByteArrayOutputStream framed = new ByteArrayOutputStream();
        framed.write(data.length >> 8);
        framed.write(data.length & 0xFF);
        framed.writeBytes(data);
        try {
            return new DataInputStream(new ByteArrayInputStream(framed.toByteArray())).readUTF();
        } catch (UTFDataFormatException error) {
            throw new Refusal(-1, error.getMessage());
        } catch (IOException error) {
            throw new IllegalStateException(error);
        }
    }

    private static String answer(String mode, String line) {
        String[] fields = line.split(" ", -1);
        String operation = fields[0];
        try {
            switch (mode + " " + operation) {
                case "new-string replace":
                    return "ok " + hexOfText(new String(bytesOf(fields[1]), StandardCharsets.UTF_8));
                case "charsetdecoder-report decode":
                    return "ok " + streamed(CodingErrorAction.REPORT, false, List.of(bytesOf(fields[1])));
                case "charsetdecoder-replace replace":
                    return "ok " + streamed(CodingErrorAction.REPLACE, false, List.of(bytesOf(fields[1])));
                case "charsetdecoder-report incremental":
                case "charsetdecoder-replace incremental": {
                    List<byte[]> chunks = new ArrayList<>();
                    for (int i = 2; i < fields.length; i++) {
                        chunks.add(bytesOf(fields[i]));
                    }
                    CodingErrorAction action = mode.endsWith("report") ? CodingErrorAction.REPORT : CodingErrorAction.REPLACE;
                    return "ok " + streamed(action, fields[1].equals("1"), chunks);
                }
                case "charsetdecoder-report reuse":
                case "charsetdecoder-replace reuse": {
                    CodingErrorAction action = mode.endsWith("report") ? CodingErrorAction.REPORT : CodingErrorAction.REPLACE;
                    return "ok " + reused(action, fields);
                }
                case "readutf decode":
                    return "ok " + hexOfText(readUtf(bytesOf(fields[1])));
                case "getbytes encode":
                    return "ok " + hexOfBytes(textOf(fields[1]).getBytes(StandardCharsets.UTF_8));
                default:
                    return "crash unknown request " + operation;
            }
        } catch (Refusal refusal) {
            String offset = refusal.offset < 0 ? EMPTY : Long.toString(refusal.offset);
            String answer = "refused " + refusal.fields + offset + " " + refusal.getMessage();
            return answer.replaceAll("\\s+", " ").strip();
        } catch (Inapplicable inapplicable) {
            return "inapplicable " + inapplicable.getMessage();
        } catch (RuntimeException error) {
            return ("crash " + error).replaceAll("\\s+", " ");
        }
    }

    public static void main(String[] arguments) throws IOException {
        String capabilities = arguments.length == 1 ? switch (arguments[0]) {
            case "new-string" -> "replace";
            case "charsetdecoder-report" -> "decode incremental incremental=strict reuse=yes";
            case "charsetdecoder-replace" -> "replace incremental incremental=replace reuse=yes";
            case "readutf" -> "decode";
            case "getbytes" -> "encode";
            default -> null;
        } : null;
        if (capabilities == null) {
            System.err.println("usage: java Utf8Codecs MODE (new-string, charsetdecoder-report, "
                    + "charsetdecoder-replace, readutf, getbytes)");
            System.exit(2);
        }
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        out.print("utf8cert-protocol 1 " + capabilities + " strings=utf-16\n");
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        for (String line; (line = in.readLine()) != null; ) {
            out.print(answer(arguments[0], line) + "\n");
            out.flush();
        }
    }
}
