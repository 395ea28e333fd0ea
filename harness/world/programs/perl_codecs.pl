# Perl's UTF-8 decoding and encoding over utf8cert-protocol 2 (harness/PROTOCOL.md), one per MODE:
#
#   perl perl_codecs.pl MODE
#
#   utf-8-croak    decode: Encode::decode('UTF-8', $bytes, FB_CROAK) (the offset is where the same
#                  decoder stops with FB_QUIET); incremental (strict): FB_CROAK | STOP_AT_PARTIAL
#                  on every chunk but the last; encode: Encode::encode('UTF-8', $text, FB_CROAK)
#   utf-8-default  replace: Encode::decode('UTF-8', $bytes) (U+FFFD);
#                  encode: Encode::encode('UTF-8', $text) (it substitutes, never refuses)
#   utf8-lax       decode: Encode::decode('utf8', $bytes, FB_CROAK); replace: the same with the
#                  default check; encode: Encode::encode('utf8', $text, FB_CROAK): Perl's lax
#                  'utf8', not 'UTF-8'
#   json-pp        decode: JSON::PP->new->utf8->decode of the bytes as a JSON string (the offset is
#                  the "character offset" its croak names, less the opening quote); encode:
#                  JSON::PP->new->utf8->encode, its escapes (ASCII only) undone
#   utf8-decode    decode: utf8::decode (false, string unchanged, on bytes it will not take);
#                  encode: utf8::encode
use strict;
use warnings;
no warnings qw(utf8 surrogate nonchar non_unicode portable);
use Encode qw(FB_CROAK FB_QUIET LEAVE_SRC STOP_AT_PARTIAL);
use JSON::PP ();

my $JSON = JSON::PP->new->utf8->allow_nonref;
my %UNESCAPED = ('b' => "\b", 'f' => "\f", 'n' => "\n", 'r' => "\r", 't' => "\t", '/' => '/');

my $EMPTY = '-';

sub bytes_of { my ($field) = @_; return $field eq $EMPTY ? '' : pack('H*', $field) }
sub hex_of_bytes { my ($data) = @_; return $data eq '' ? $EMPTY : unpack('H*', $data) }
sub text_of { my ($field) = @_; return $field eq $EMPTY ? '' : join('', map { chr } unpack('N*', pack('H*', $field))) }

sub hex_of_text {
    my ($text) = @_;
    return "ok $EMPTY" if $text eq '';
    my @values = unpack('W*', $text);    # each character's number
    # Perl's own extended UTF-8 reaches values the protocol's eight hex digits cannot carry.
    for my $value (@values) {
        return sprintf('wrong-type returned the code point 0x%X', $value) if $value > 0xFFFFFFFF;
    }
    return 'ok ' . sprintf('%08x' x @values, @values);
}

# One line, without the "at FILE line N" Perl appends to a die message.
sub one_line { my ($text) = @_; $text =~ s/ at \S+ line \d+.*//s; $text =~ s/\s+/ /g; return $text }

# The length of what $convert gets through with FB_QUIET (which leaves the rest in its source).
sub stops_at {
    my ($convert, $input) = @_;
    my $rest = $input;
    $convert->(\$rest);
    return length($input) - length($rest);
}

sub strict_decode {
    my ($encoding, $data) = @_;
    my $text = eval { Encode::decode($encoding, $data, FB_CROAK | LEAVE_SRC) };
    return hex_of_text($text) if defined $text;
    my $why = one_line($@);
    my $at = stops_at(sub { Encode::decode($encoding, ${ $_[0] }, FB_QUIET) }, $data);
    return "refused $at $why";
}

sub strict_encode {
    my ($encoding, $text) = @_;
    my $data = eval { Encode::encode($encoding, $text, FB_CROAK | LEAVE_SRC) };
    return 'ok ' . hex_of_bytes($data) if defined $data;
    my $why = one_line($@);
    my $at = stops_at(sub { Encode::encode($encoding, ${ $_[0] }, FB_QUIET) }, $text);
    return "refused $at $why";
}

sub incremental {
    my ($final_empty, @chunks) = @_;
    push @chunks, '' if $final_empty || !@chunks;
    my ($pending, $text, $fed) = ('', '', 0);
    for my $i (0 .. $#chunks) {
        $pending .= $chunks[$i];
        $fed += length $chunks[$i];
        my $check = FB_CROAK | ($i < $#chunks ? STOP_AT_PARTIAL : 0);
        my $before = $pending;
        my $piece = eval { Encode::decode('UTF-8', $pending, $check) };
        if (!defined $piece) {
            my $why = one_line($@);
            my $at = $fed - length($before)
                + stops_at(sub { Encode::decode('UTF-8', ${ $_[0] }, FB_QUIET) }, $before);
            return "refused $at $why";
        }
        $text .= $piece;    # $pending keeps what STOP_AT_PARTIAL held back
    }
    return hex_of_text($text);
}

# The bytes as a JSON string: only the ASCII that JSON must escape is escaped, as \u00XX, so
# every other byte reaches the parser as it is.
sub json_string_of {
    my ($data) = @_;
    $data =~ s/([\x00-\x1f"\\])/sprintf('\\u%04x', ord $1)/ge;
    return qq("$data");
}

sub json_decode {
    my ($data) = @_;
    my $text = eval { $JSON->decode(json_string_of($data)) };
    return hex_of_text($text) if defined $text;
    my $why = one_line($@);
    return "refused - $why" unless $why =~ /at character offset (\d+)/;
    # The croak counts in the JSON text: from its opening quote, and six for each escaped byte.
    my ($target, $position, $at) = ($1 - 1, 0, 0);
    while ($at < length($data) && $position < $target) {
        $position += substr($data, $at++, 1) =~ /[\x00-\x1f"\\]/ ? 6 : 1;
    }
    return 'refused ' . ($position == $target ? $at : '-') . " $why";
}

sub json_encode {
    my ($text) = @_;
    my $json = $JSON->encode($text);
    $json =~ s/\A"|"\z//g;
    $json =~ s/\\(?:u([0-9a-fA-F]{4})|(.))/defined $1 ? chr(hex $1) : ($UNESCAPED{$2} \/\/ $2)/ges;
    return 'ok ' . hex_of_bytes($json);
}

sub answer {
    my ($mode, $line) = @_;
    my ($operation, @fields) = split / /, $line;
    my $field = $fields[0] // $EMPTY;
    my $request = "$mode $operation";
    return strict_decode('UTF-8', bytes_of($field)) if $request eq 'utf-8-croak decode';
    return strict_encode('UTF-8', text_of($field)) if $request eq 'utf-8-croak encode';
    if ($request eq 'utf-8-croak incremental') {
        return incremental($field eq '1', map { bytes_of($_) } @fields[1 .. $#fields]);
    }
    return hex_of_text(Encode::decode('UTF-8', bytes_of($field))) if $request eq 'utf-8-default replace';
    return 'ok ' . hex_of_bytes(Encode::encode('UTF-8', text_of($field))) if $request eq 'utf-8-default encode';
    return strict_decode('utf8', bytes_of($field)) if $request eq 'utf8-lax decode';
    return hex_of_text(Encode::decode('utf8', bytes_of($field))) if $request eq 'utf8-lax replace';
    return strict_encode('utf8', text_of($field)) if $request eq 'utf8-lax encode';
    return json_decode(bytes_of($field)) if $request eq 'json-pp decode';
    return json_encode(text_of($field)) if $request eq 'json-pp encode';
    if ($request eq 'utf8-decode decode') {
        my $text = bytes_of($field);
        return 'refused - utf8::decode returned false' unless utf8::decode($text);
        return hex_of_text($text);
    }
    if ($request eq 'utf8-decode encode') {
        my $text = text_of($field);
        utf8::encode($text);
        return 'ok ' . hex_of_bytes($text);
    }
    return "crash unknown request $operation";
}

my %CAPABILITIES = (
    'utf-8-croak'   => 'decode encode incremental incremental=strict',
    'utf-8-default' => 'replace encode',
    'utf8-lax'      => 'decode replace encode',
    'utf8-decode'   => 'decode encode',
    'json-pp'       => 'decode encode',
);

my $mode = $ARGV[0] // '';
if (!exists $CAPABILITIES{$mode}) {
    print STDERR 'usage: perl perl_codecs.pl MODE (' . join(', ', sort keys %CAPABILITIES) . ")\n";
    exit 2;
}
binmode STDIN;
binmode STDOUT;
$| = 1;
print "utf8cert-protocol 2 $CAPABILITIES{$mode}\n";
while (my $line = <STDIN>) {
    $line =~ s/\r?\n\z//;
    my ($id, $request) = split / /, $line, 2;
    my $reply = eval { answer($mode, $request // '') } // 'crash ' . one_line($@);
    print "$id $reply\n";
}
