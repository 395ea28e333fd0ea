# A template for certifying a Ruby UTF-8 codec with utf8cert, over utf8cert-protocol 2
# (harness/PROTOCOL.md). Copy it, put your codec in the four methods marked YOUR CODEC, drop from
# CAPABILITIES what your codec does not do, then:
#
#   utf8cert check "cmd:ruby examples/ruby/utf8codec.rb"
#
# As shipped it certifies Ruby's own String methods: decode raises where String#encode does
# (Encoding::Converter says where), replace is String#scrub, validate String#valid_encoding?,
# encode Integer#chr(Encoding::UTF_8).

# The requests your codec answers (decode replace validate encode).
CAPABILITIES = 'decode replace validate encode'

# A codec's refusal: where (the first offending byte, or code point for encode; nil when the
# codec does not say) and why.
class Refused < StandardError
  attr_reader :offset

  def initialize(offset, message)
    super(message)
    @offset = offset
  end
end

# Strict decoding: an Array of code points, or raise Refused at the first ill-formed byte.
# YOUR CODEC.
def decode(data)
  text = data.dup.force_encoding(Encoding::UTF_8)
  return text.codepoints if text.valid_encoding?

  # Encoding::Converter (what String#encode runs on) says where it stopped: the bytes it took,
  # less those of the error and those it gives back to be read again.
  source = text.dup
  converter = Encoding::Converter.new(Encoding::UTF_8, Encoding::UTF_16LE)
  converter.primitive_convert(source, +'')
  _, _, _, bad, again = converter.primitive_errinfo
  offset = text.bytesize - source.bytesize - bad.bytesize - again.bytesize
  raise Refused.new(offset, "invalid byte sequence #{bad.unpack1('H*')}")
end

# Decoding with U+FFFD for ill-formed input: an Array of code points. YOUR CODEC.
def replace(data)
  data.dup.force_encoding(Encoding::UTF_8).scrub.codepoints
end

# Whether the bytes are well-formed UTF-8. YOUR CODEC.
def validate(data)
  data.dup.force_encoding(Encoding::UTF_8).valid_encoding?
end

# Strict encoding of an Array of code points: a binary String, or raise Refused at the first
# value it cannot encode (a surrogate, a value above U+10FFFF). YOUR CODEC.
def encode(values)
  values.each_with_index.map do |value, i|
    value.chr(Encoding::UTF_8).b
  rescue RangeError => e
    raise Refused.new(i, e.message)
  end.join.b
end

# --- the protocol: nothing to change below --------------------------------------------------

EMPTY = '-' # an empty field

def bytes_of(field) = field == EMPTY ? ''.b : [field].pack('H*')
def hex_of_bytes(data) = data.empty? ? EMPTY : data.unpack1('H*')
# Code points travel as eight hex digits each (the hex of UTF-32BE).
def hex_of_code_points(values) = values.empty? ? EMPTY : values.pack('N*').unpack1('H*')
def code_points_of(field) = bytes_of(field).unpack('N*')

def answer(operation, field)
  case operation
  when 'decode' then "ok #{hex_of_code_points(decode(bytes_of(field)))}"
  when 'replace' then "ok #{hex_of_code_points(replace(bytes_of(field)))}"
  when 'validate' then "ok #{validate(bytes_of(field))}"
  when 'encode' then "ok #{hex_of_bytes(encode(code_points_of(field)))}"
  else "crash unknown request #{operation}"
  end
rescue Refused => e
  "refused #{e.offset || '-'} #{e.message}"
rescue StandardError => e
  "crash #{e.class}: #{e.message}".gsub(/\s+/, ' ')
end

$stdout.sync = true # each answer is written at once: utf8cert may wait for it
puts "utf8cert-protocol 2 #{CAPABILITIES}"
$stdin.each_line do |line|
  # A request is "ID OPERATION FIELD"; its answer starts with the same ID.
  id, operation, field = line.split
  puts "#{id} #{answer(operation, field || EMPTY)}"
end
