# Ruby's UTF-8 decoding and encoding over utf8cert-protocol 2 (harness/PROTOCOL.md), one per MODE:
#
#   ruby ruby_codecs.rb MODE
#
#   valid-encoding       validate: String#valid_encoding? on the bytes as UTF-8
#   scrub                replace: String#scrub (U+FFFD, the default for UTF-8)
#   encode-utf16-replace replace: String#encode('UTF-16LE', invalid: :replace) (U+FFFD)
#   encode-utf8-replace  replace: String#encode('UTF-8', invalid: :replace) on a UTF-8 string
#   encode-strict        decode: String#encode('UTF-16LE'), refused where it raises (the offset is
#                        the one Encoding::Converter, which it runs on, reports); incremental
#                        (strict): Encoding::Converter#primitive_convert with partial_input
#   pack-u               encode: Array#pack('U*'); decode: String#unpack('U*') (refused where it
#                        raises ArgumentError, which says not where)
#   json-parse           decode: JSON.parse of the bytes as a JSON string (JSON::ParserError:
#                        refused); a String that is not valid UTF-8 is no text, so `wrong-type`
#   integer-chr          encode: Integer#chr(Encoding::UTF_8) for each code point, joined
#   encode-from-utf32    encode: String#encode('UTF-8') of the code points as a UTF-32BE string,
#                        refused where it raises (Encoding::Converter says at which code point)
require 'json'
$stdout.sync = true
EMPTY = '-'

def bytes_of(field)
  field == EMPTY ? ''.b : [field].pack('H*')
end

def hex_of_code_points(values)
  values.empty? ? EMPTY : values.pack('N*').unpack1('H*')
end

def hex_of_bytes(data)
  data.empty? ? EMPTY : data.unpack1('H*')
end

def code_points_of(field)
  field == EMPTY ? [] : [field].pack('H*').unpack('N*')
end

def utf8(data)
  data.dup.force_encoding(Encoding::UTF_8)
end

# The offset of the first byte Encoding::Converter cannot convert: what it consumed, less the
# bytes of the error and those it gives back to be read again.
def error_offset(converter, fed, left)
  _, _, _, error_bytes, readagain_bytes = converter.primitive_errinfo
  fed - left - error_bytes.bytesize - readagain_bytes.bytesize
end

# Feeds chunks to one converter; returns [code points] or [nil, offset, message].
def convert(chunks, final_empty)
  converter = Encoding::Converter.new(Encoding::UTF_8, Encoding::UTF_16LE)
  out = ''.b
  fed = 0
  chunks = chunks + [''.b] if final_empty || chunks.empty?
  chunks.each_with_index do |chunk, i|
    source = utf8(chunk)
    fed += source.bytesize
    partial = i < chunks.size - 1
    loop do
      result = converter.primitive_convert(source, out, nil, nil, partial_input: partial)
      break if %i[source_buffer_empty finished].include?(result)
      next if result == :destination_buffer_full

      return [nil, error_offset(converter, fed, source.bytesize), result.to_s]
    end
  end
  [out.force_encoding(Encoding::UTF_16LE).codepoints]
end

def decode(data)
  [utf8(data).encode(Encoding::UTF_16LE).codepoints]
rescue EncodingError => e
  _, offset = convert([data], false)
  [nil, offset, "#{e.class}: #{e.message}"]
end

def encode_from_utf32(field)
  source = bytes_of(field).force_encoding(Encoding::UTF_32BE)
  "ok #{hex_of_bytes(source.encode(Encoding::UTF_8).b)}"
rescue EncodingError => e
  rest = source.dup
  converter = Encoding::Converter.new(Encoding::UTF_32BE, Encoding::UTF_8)
  converter.primitive_convert(rest, +'')
  at = error_offset(converter, source.bytesize, rest.bytesize)
  "refused #{at / 4} #{e.class}: #{e.message}"
end

# The bytes as a JSON string: only the ASCII that JSON must escape is escaped, as \u00XX, so
# every other byte reaches the parser as it is.
def json_string_of(data)
  %("#{data.gsub(/[\x00-\x1f"\\]/n) { |byte| format('\\u%04x', byte.ord) }}")
end

def json_parse(data)
  text = JSON.parse(json_string_of(data))
  return "ok #{hex_of_code_points(text.codepoints)}" if text.valid_encoding?

  "wrong-type JSON.parse returned a String that is not valid UTF-8: #{text.b.unpack1('H*')}"
rescue JSON::ParserError => e
  "refused - #{e.message}".gsub(/\s+/, ' ')
end

def encode_each(values)
  out = ''.b
  values.each_with_index do |value, i|
    out << yield(value)
  rescue RangeError => e
    return "refused #{i} #{e.message}"
  end
  "ok #{hex_of_bytes(out)}"
end

def strict(result)
  values, offset, message = result
  values ? "ok #{hex_of_code_points(values)}" : "refused #{offset.nil? ? '-' : offset} #{message}"
end

def answer(mode, line)
  operation, *fields = line.split(' ')
  case [mode, operation]
  in ['valid-encoding', 'validate'] then "ok #{utf8(bytes_of(fields[0])).valid_encoding?}"
  in ['scrub', 'replace'] then "ok #{hex_of_code_points(utf8(bytes_of(fields[0])).scrub.codepoints)}"
  in ['encode-utf16-replace', 'replace']
    text = utf8(bytes_of(fields[0])).encode(Encoding::UTF_16LE, invalid: :replace)
    "ok #{hex_of_code_points(text.codepoints)}"
  in ['encode-utf8-replace', 'replace']
    text = utf8(bytes_of(fields[0])).encode(Encoding::UTF_8, invalid: :replace)
    return "wrong-type returned a String that is not valid UTF-8" unless text.valid_encoding?

    "ok #{hex_of_code_points(text.codepoints)}"
  in ['encode-strict', 'decode'] then strict(decode(bytes_of(fields[0])))
  in ['encode-strict', 'incremental']
    strict(convert(fields[1..].map { |field| bytes_of(field) }, fields[0] == '1'))
  in ['pack-u', 'encode']
    values = code_points_of(fields[0])
    encode_each(values) { |value| [value].pack('U') }.then do |reply|
      # pack('U*') is asked in one go; the per-value pass above only locates its refusal.
      reply.start_with?('ok') ? "ok #{hex_of_bytes(values.pack('U*').b)}" : reply
    end
  in ['encode-from-utf32', 'encode'] then encode_from_utf32(fields[0])
  in ['pack-u', 'decode']
    begin
      "ok #{hex_of_code_points(bytes_of(fields[0]).unpack('U*'))}"
    rescue ArgumentError => e
      "refused - #{e.message}"
    end
  in ['json-parse', 'decode'] then json_parse(bytes_of(fields[0]))
  in ['integer-chr', 'encode'] then encode_each(code_points_of(fields[0])) { |value| value.chr(Encoding::UTF_8).b }
  else "crash unknown request #{operation}"
  end
rescue StandardError => e
  "crash #{e.class}: #{e.message}".gsub(/\s+/, ' ')
end

CAPABILITIES = {
  'valid-encoding' => 'validate', 'scrub' => 'replace', 'encode-utf16-replace' => 'replace',
  'encode-utf8-replace' => 'replace', 'encode-strict' => 'decode incremental incremental=strict',
  'pack-u' => 'decode encode', 'integer-chr' => 'encode', 'encode-from-utf32' => 'encode',
  'json-parse' => 'decode'
}.freeze

mode = ARGV[0]
unless CAPABILITIES.key?(mode)
  warn "usage: ruby ruby_codecs.rb MODE (#{CAPABILITIES.keys.join(', ')})"
  exit 2
end
puts "utf8cert-protocol 2 #{CAPABILITIES[mode]}"
$stdin.each_line do |line|
  id, request = line.chomp.split(' ', 2)
  puts "#{id} #{answer(mode, request.to_s)}"
end
