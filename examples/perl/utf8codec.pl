# A template for certifying a Perl UTF-8 codec with utf8cert, over utf8cert-protocol 2
# (harness/PROTOCOL.md). Copy it, put your codec in the four subs marked YOUR CODEC, drop from
# $CAPABILITIES what your codec does not do, then:
#
#   utf8cert check "cmd:perl examples/perl/utf8codec.pl"
#
# As shipped it certifies Encode's strict 'UTF-8' (FB_CROAK to decode and encode, the default
# check to replace), and utf8cert finds what Encode does: it refuses the noncharacters (U+FDD0,
# U+FFFE...) that Unicode (Corrigendum #9) allows, and its replacing decoder can take the
# character after a stray byte with it. Text is a Perl string of characters, bytes a byte string.
use strict;
use warnings;
use Encode qw(FB_CROAK FB_QUIET LEAVE_SRC);

# The requests your codec answers (decode replace validate encode).
my $CAPABILITIES = 'decode replace validate encode';

# A refusal is a die with { offset => ..., message => ... }: where (the first offending byte, or
# character for encode; undef when the codec does not say) and why.
sub refuse { my ($offset, $message) = @_; die { offset => $offset, message => $message } }

# Strict decoding: the text, or refuse at the first ill-formed byte. YOUR CODEC.
sub decode_strict {
    my ($bytes) = @_;
    my $text = eval { Encode::decode('UTF-8', $bytes, FB_CROAK | LEAVE_SRC) };
    return $text if defined $text;
    my $rest = $bytes;    # FB_QUIET stops at the error and leaves the rest in its source
    Encode::decode('UTF-8', $rest, FB_QUIET);
    refuse(length($bytes) - length($rest), 'not valid UTF-8');
}

# Decoding with U+FFFD for ill-formed input. YOUR CODEC.
sub decode_replace { my ($bytes) = @_; return Encode::decode('UTF-8', $bytes) }

# Whether the bytes are well-formed UTF-8. YOUR CODEC.
sub validate {
    my ($bytes) = @_;
    return defined eval { Encode::decode('UTF-8', $bytes, FB_CROAK | LEAVE_SRC) };
}

# Strict encoding: the bytes, or refuse at the first character it cannot encode (a surrogate,
# a value above U+10FFFF). YOUR CODEC.
sub encode_strict {
    my ($text) = @_;
    my $bytes = eval { Encode::encode('UTF-8', $text, FB_CROAK | LEAVE_SRC) };
    return $bytes if defined $bytes;
    my $rest = $text;
    Encode::encode('UTF-8', $rest, FB_QUIET);
    refuse(length($text) - length($rest), 'not encodable in UTF-8');
}

# --- the protocol: nothing to change below --------------------------------------------------

my $EMPTY = '-';    # an empty field

sub bytes_of { my ($field) = @_; return $field eq $EMPTY ? '' : pack('H*', $field) }
sub hex_of_bytes { my ($bytes) = @_; return $bytes eq '' ? $EMPTY : unpack('H*', $bytes) }

# Code points travel as eight hex digits each (the hex of UTF-32BE).
sub hex_of_text {
    my ($text) = @_;
    return $text eq '' ? $EMPTY : join('', map { sprintf('%08x', ord) } split(//, $text));
}

sub text_of {
    my ($field) = @_;
    no warnings qw(utf8 surrogate nonchar non_unicode);
    return join('', map { chr } unpack('N*', bytes_of($field)));
}

sub answer {
    my ($operation, $field) = @_;
    my $reply = eval {
        return 'ok ' . hex_of_text(decode_strict(bytes_of($field))) if $operation eq 'decode';
        return 'ok ' . hex_of_text(decode_replace(bytes_of($field))) if $operation eq 'replace';
        return 'ok ' . (validate(bytes_of($field)) ? 'true' : 'false') if $operation eq 'validate';
        return 'ok ' . hex_of_bytes(encode_strict(text_of($field))) if $operation eq 'encode';
        return "crash unknown request $operation";
    };
    return $reply if defined $reply;
    my $error = $@;
    return 'refused ' . ($error->{offset} // '-') . " $error->{message}" if ref $error eq 'HASH';
    $error =~ s/\s+/ /g;
    return "crash $error";
}

binmode STDIN;
binmode STDOUT;
$| = 1;    # each answer is written at once: utf8cert may wait for it
print "utf8cert-protocol 2 $CAPABILITIES\n";
while (my $line = <STDIN>) {
    # A request is "ID OPERATION FIELD"; its answer starts with the same ID.
    my ($id, $operation, $field) = split ' ', $line;
    print "$id ", answer($operation, $field // $EMPTY), "\n";
}
