<?php
// PHP's UTF-8 decoding and encoding over utf8cert-protocol 2 (harness/PROTOCOL.md), one per MODE:
//
//   php php_codecs.php MODE
//
//   mb-check-encoding    validate: mb_check_encoding($bytes, 'UTF-8')
//   mb-convert-encoding  replace: mb_convert_encoding($bytes, 'UTF-8', 'UTF-8'), with
//                        mb_substitute_character(0xFFFD) (its default is '?');
//                        encode: mb_convert_encoding from UTF-32BE (it substitutes, never refuses)
//   mb-scrub             replace: mb_scrub($bytes, 'UTF-8'), substitute character U+FFFD
//   htmlspecialchars     replace: htmlspecialchars(.., ENT_NOQUOTES | ENT_SUBSTITUTE, 'UTF-8'),
//                        undone by htmlspecialchars_decode; decode: the same without
//                        ENT_SUBSTITUTE, which returns '' for ill-formed input
//   iconv                decode: iconv('UTF-8', 'UTF-32BE', ..) (false on ill-formed input);
//                        encode: iconv('UTF-32BE', 'UTF-8', ..)
//   mb-chr               encode: mb_chr($value, 'UTF-8') for each code point (false: refused)
//   preg-u               validate: preg_match('//u', $bytes) (PCRE's UTF check)
//   json-decode          decode: json_decode of the bytes as a JSON string (JSON_THROW_ON_ERROR:
//                        refused on JSON_ERROR_UTF8); replace: with JSON_INVALID_UTF8_SUBSTITUTE
//   json-encode          validate: json_encode($bytes) !== false; replace: json_encode with
//                        JSON_INVALID_UTF8_SUBSTITUTE (its output read back with json_decode)
//   intlchar             encode: IntlChar::chr($value) for each code point (null: refused)
//   uconverter           replace: UConverter::transcode($bytes, 'UTF-32BE', 'UTF-8') (ICU);
//                        encode: UConverter::transcode from UTF-32BE to UTF-8
//
// Code points travel as UTF-32BE, which is also what iconv and mbstring convert to and from.
declare(strict_types=1);

const EMPTY_FIELD = '-';

function bytes_of(string $field): string
{
    return $field === EMPTY_FIELD ? '' : hex2bin($field);
}

function hex_of(string $data): string
{
    return $data === '' ? EMPTY_FIELD : bin2hex($data);
}

/** The UTF-32BE of a valid UTF-8 string, as mbstring converts it. */
function utf32_of(string $text): string
{
    return mb_convert_encoding($text, 'UTF-32BE', 'UTF-8');
}

function replace_by_mbstring(string $data): string
{
    return 'ok ' . hex_of(utf32_of(mb_convert_encoding($data, 'UTF-8', 'UTF-8')));
}

/** The bytes as a JSON string: only the ASCII that JSON must escape is escaped, as \u00XX, so
 * every other byte (every byte of a multi-byte sequence) reaches the decoder as it is. */
function json_string_of(string $data): string
{
    $escape = fn (array $match): string => sprintf('\\u%04x', ord($match[0]));
    return '"' . preg_replace_callback('/[\x00-\x1f"\\\\]/', $escape, $data) . '"';
}

/** Encodes UTF-32BE with $convert, refused at the first value it fails on. */
function encode_each(string $utf32, callable $convert): string
{
    $out = '';
    foreach (str_split($utf32, 4) as $i => $unit) {
        $bytes = $unit === '' ? '' : $convert($unit);
        if ($bytes === false) {
            return "refused $i not encoded";
        }
        $out .= $bytes;
    }
    return 'ok ' . hex_of($out);
}

function answer(string $mode, string $line): string
{
    $fields = explode(' ', $line);
    $operation = $fields[0];
    $data = bytes_of($fields[1] ?? EMPTY_FIELD);
    switch ("$mode $operation") {
        case 'mb-check-encoding validate':
            return 'ok ' . (mb_check_encoding($data, 'UTF-8') ? 'true' : 'false');
        case 'mb-convert-encoding replace':
            return replace_by_mbstring($data);
        case 'mb-convert-encoding encode':
            return 'ok ' . hex_of(mb_convert_encoding($data, 'UTF-8', 'UTF-32BE'));
        case 'mb-scrub replace':
            return 'ok ' . hex_of(utf32_of(mb_scrub($data, 'UTF-8')));
        case 'htmlspecialchars replace':
            $escaped = htmlspecialchars($data, ENT_NOQUOTES | ENT_SUBSTITUTE, 'UTF-8');
            return 'ok ' . hex_of(utf32_of(htmlspecialchars_decode($escaped, ENT_NOQUOTES)));
        case 'htmlspecialchars decode':
            $escaped = htmlspecialchars($data, ENT_NOQUOTES, 'UTF-8');
            if ($escaped === '' && $data !== '') {
                return 'refused - htmlspecialchars returned an empty string';
            }
            return 'ok ' . hex_of(utf32_of(htmlspecialchars_decode($escaped, ENT_NOQUOTES)));
        case 'iconv decode':
            $utf32 = @iconv('UTF-8', 'UTF-32BE', $data);
            if ($utf32 === false) {
                return 'refused - ' . (error_get_last()['message'] ?? 'iconv returned false');
            }
            return 'ok ' . hex_of($utf32);
        case 'iconv encode':
            return encode_each($data, fn (string $unit) => @iconv('UTF-32BE', 'UTF-8', $unit));
        case 'mb-chr encode':
            return encode_each($data, fn (string $unit) => mb_chr(unpack('N', $unit)[1], 'UTF-8'));
        case 'json-decode decode':
            try {
                return 'ok ' . hex_of(utf32_of(json_decode(json_string_of($data), false, 512, JSON_THROW_ON_ERROR)));
            } catch (JsonException $error) {
                return 'refused - ' . $error->getMessage();
            }
        case 'json-decode replace':
            $text = json_decode(json_string_of($data), false, 512, JSON_INVALID_UTF8_SUBSTITUTE);
            return 'ok ' . hex_of(utf32_of($text));
        case 'json-encode validate':
            return 'ok ' . (json_encode($data) !== false ? 'true' : 'false');
        case 'json-encode replace':
            $json = json_encode($data, JSON_INVALID_UTF8_SUBSTITUTE | JSON_UNESCAPED_UNICODE);
            return 'ok ' . hex_of(utf32_of(json_decode($json, false, 512, JSON_THROW_ON_ERROR)));
        case 'intlchar encode':
            return encode_each($data, fn (string $unit) => IntlChar::chr(unpack('N', $unit)[1]) ?? false);
        case 'uconverter replace':
            return 'ok ' . hex_of(UConverter::transcode($data, 'UTF-32BE', 'UTF-8'));
        case 'uconverter encode':
            return 'ok ' . hex_of(UConverter::transcode($data, 'UTF-8', 'UTF-32BE'));
        case 'preg-u validate':
            return 'ok ' . (@preg_match('//u', $data) === 1 ? 'true' : 'false');
    }
    return "crash unknown request $operation";
}

const CAPABILITIES = [
    'mb-check-encoding' => 'validate',
    'mb-convert-encoding' => 'replace encode',
    'mb-scrub' => 'replace',
    'htmlspecialchars' => 'decode replace',
    'iconv' => 'decode encode',
    'mb-chr' => 'encode',
    'preg-u' => 'validate',
    'json-decode' => 'decode replace',
    'json-encode' => 'validate replace',
    'intlchar' => 'encode',
    'uconverter' => 'replace encode',
];
const EXTENSIONS = ['intlchar' => ['intl'], 'uconverter' => ['intl'], 'json-decode' => ['json', 'mbstring'],
    'json-encode' => ['json', 'mbstring']];

$mode = $argv[1] ?? '';
if (!isset(CAPABILITIES[$mode])) {
    fwrite(STDERR, 'usage: php php_codecs.php MODE (' . implode(', ', array_keys(CAPABILITIES)) . ")\n");
    exit(2);
}
foreach (EXTENSIONS[$mode] ?? ['mbstring', 'iconv', 'pcre'] as $extension) {
    if (!extension_loaded($extension)) {
        fwrite(STDERR, "PHP extension $extension is not loaded (apt-get install php-$extension)\n");
        exit(1);
    }
}
mb_substitute_character(0xFFFD);
echo 'utf8cert-protocol 2 ' . CAPABILITIES[$mode] . "\n";
while (($line = fgets(STDIN)) !== false) {
    [$id, $request] = array_pad(explode(' ', rtrim($line, "\r\n"), 2), 2, '');
    try {
        $reply = answer($mode, $request);
    } catch (Throwable $error) {
        $reply = 'crash ' . preg_replace('/\s+/', ' ', get_class($error) . ': ' . $error->getMessage());
    }
    echo $id, ' ', $reply, "\n";
    fflush(STDOUT);
}
