<?php
// A template for certifying a PHP UTF-8 codec with utf8cert, over utf8cert-protocol 2
// (harness/PROTOCOL.md). Copy it, put your codec in the four functions marked YOUR CODEC, drop
// from CAPABILITIES what your codec does not do, then:
//
//   utf8cert check "cmd:php examples/php/utf8codec.php"
//
// As shipped it certifies PHP's mbstring (apt-get install php-mbstring): decode refuses what
// mb_check_encoding rejects, replace is mb_scrub with U+FFFD as the substitute character (its
// default is '?'), validate is mb_check_encoding, encode refuses where mb_chr returns false.
// Code points are arrays of ints; bytes are PHP strings.
declare(strict_types=1);

// The requests your codec answers (decode replace validate encode).
const CAPABILITIES = 'decode replace validate encode';

/** A codec's refusal: where (the first offending byte, or code point for encode; null when the
 * codec does not say) and why. */
final class Refused extends Exception
{
    public function __construct(public readonly ?int $offset, string $message)
    {
        parent::__construct($message);
    }
}

/** Strict decoding: the code points, or throw Refused at the first ill-formed byte. YOUR CODEC. */
function decode(string $data): array
{
    if (!mb_check_encoding($data, 'UTF-8')) {
        throw new Refused(null, 'mb_check_encoding: not valid UTF-8');
    }
    return code_points_of_utf8($data);
}

/** Decoding with U+FFFD for ill-formed input: the code points. YOUR CODEC. */
function replace(string $data): array
{
    mb_substitute_character(0xFFFD);
    return code_points_of_utf8(mb_scrub($data, 'UTF-8'));
}

/** Whether the bytes are well-formed UTF-8. YOUR CODEC. */
function validate(string $data): bool
{
    return mb_check_encoding($data, 'UTF-8');
}

/** Strict encoding: the bytes, or throw Refused at the first value it cannot encode (a
 * surrogate, a value above U+10FFFF). YOUR CODEC. */
function encode(array $values): string
{
    $out = '';
    foreach ($values as $i => $value) {
        $bytes = mb_chr($value, 'UTF-8');
        if ($bytes === false) {
            throw new Refused($i, sprintf('mb_chr: U+%04X is not encodable', $value));
        }
        $out .= $bytes;
    }
    return $out;
}

/** The code points of a well-formed UTF-8 string (a helper of the example codec). */
function code_points_of_utf8(string $text): array
{
    $utf32 = mb_convert_encoding($text, 'UTF-32BE', 'UTF-8');
    return $utf32 === '' ? [] : array_values(unpack('N*', $utf32));
}

// --- the protocol: nothing to change below --------------------------------------------------

const EMPTY_FIELD = '-'; // an empty field

function bytes_of(string $field): string
{
    return $field === EMPTY_FIELD ? '' : (string) hex2bin($field);
}

// Code points travel as eight hex digits each (the hex of UTF-32BE).
function hex_of_code_points(array $values): string
{
    return $values === [] ? EMPTY_FIELD : bin2hex(pack('N*', ...$values));
}

function answer(string $operation, string $field): string
{
    try {
        switch ($operation) {
            case 'decode':
                return 'ok ' . hex_of_code_points(decode(bytes_of($field)));
            case 'replace':
                return 'ok ' . hex_of_code_points(replace(bytes_of($field)));
            case 'validate':
                return 'ok ' . (validate(bytes_of($field)) ? 'true' : 'false');
            case 'encode':
                $values = $field === EMPTY_FIELD ? [] : array_values(unpack('N*', bytes_of($field)));
                $bytes = encode($values);
                return 'ok ' . ($bytes === '' ? EMPTY_FIELD : bin2hex($bytes));
        }
        return "crash unknown request $operation";
    } catch (Refused $refusal) {
        return 'refused ' . ($refusal->offset ?? '-') . ' ' . $refusal->getMessage();
    } catch (Throwable $error) {
        return 'crash ' . preg_replace('/\s+/', ' ', get_class($error) . ': ' . $error->getMessage());
    }
}

echo 'utf8cert-protocol 2 ' . CAPABILITIES . "\n";
while (($line = fgets(STDIN)) !== false) {
    // A request is "ID OPERATION FIELD"; its answer starts with the same ID.
    [$id, $operation, $field] = array_pad(explode(' ', rtrim($line, "\r\n")), 3, EMPTY_FIELD);
    echo $id, ' ', answer($operation, $field), "\n";
    fflush(STDOUT); // each answer is written at once: utf8cert may wait for it
}
