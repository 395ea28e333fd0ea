-- A template for certifying a Lua UTF-8 codec with utf8cert, over utf8cert-protocol 2
-- (harness/PROTOCOL.md). Copy it, put your codec in the three functions marked YOUR CODEC, drop
-- from CAPABILITIES what your codec does not do, then:
--
--   utf8cert check "cmd:lua5.4 examples/lua/utf8codec.lua"
--
-- As shipped it certifies Lua 5.4's utf8 library used with care: decode validates with utf8.len
-- before utf8.codes (which lets a stray continuation byte through), encode refuses surrogates
-- and values above U+10FFFF before utf8.char (which encodes any value up to 0x7FFFFFFF).
-- Text is a Lua array of code points, bytes a Lua string.

-- The requests your codec answers (decode validate encode).
local CAPABILITIES = "decode validate encode"

-- A refusal is error({offset = ..., message = ...}): where (0-based: the first offending byte,
-- or code point for encode; nil when the codec does not say) and why.
local function refuse(offset, message) error({ offset = offset, message = message }) end

-- Strict decoding: the code points, or refuse at the first ill-formed byte. YOUR CODEC.
local function decode(bytes)
  local length, at = utf8.len(bytes)
  if length == nil then refuse(at - 1, "invalid UTF-8") end -- utf8.len counts from 1
  local values = {}
  for _, value in utf8.codes(bytes) do values[#values + 1] = value end
  return values
end

-- Whether the bytes are well-formed UTF-8. YOUR CODEC.
local function validate(bytes) return utf8.len(bytes) ~= nil end

-- Strict encoding: the bytes, or refuse at the first value it cannot encode. YOUR CODEC.
local function encode(values)
  local out = {}
  for i, value in ipairs(values) do
    if value > 0x10FFFF or (value >= 0xD800 and value <= 0xDFFF) then
      refuse(i - 1, string.format("U+%04X is not a Unicode scalar value", value))
    end
    out[#out + 1] = utf8.char(value)
  end
  return table.concat(out)
end

-- --- the protocol: nothing to change below -------------------------------------------------

local EMPTY = "-" -- an empty field

local function bytes_of(field)
  if field == EMPTY then return "" end
  return (field:gsub("..", function(pair) return string.char(tonumber(pair, 16)) end))
end

local function hex_of_bytes(bytes)
  if bytes == "" then return EMPTY end
  return (bytes:gsub(".", function(byte) return string.format("%02x", byte:byte()) end))
end

-- Code points travel as eight hex digits each (the hex of UTF-32BE).
local function hex_of_code_points(values)
  local out = {}
  for i, value in ipairs(values) do out[i] = string.format("%08x", value) end
  return #out == 0 and EMPTY or table.concat(out)
end

local function code_points_of(field)
  local values = {}
  if field == EMPTY then return values end
  for i = 1, #field, 8 do values[#values + 1] = tonumber(field:sub(i, i + 7), 16) end
  return values
end

local function answer(operation, field)
  local ok, reply = pcall(function()
    if operation == "decode" then return "ok " .. hex_of_code_points(decode(bytes_of(field))) end
    if operation == "validate" then return "ok " .. tostring(validate(bytes_of(field))) end
    if operation == "encode" then return "ok " .. hex_of_bytes(encode(code_points_of(field))) end
    return "crash unknown request " .. operation
  end)
  if ok then return reply end
  if type(reply) == "table" then
    return "refused " .. (reply.offset or "-") .. " " .. reply.message
  end
  return "crash " .. tostring(reply):gsub("%s+", " ")
end

io.stdout:setvbuf("line") -- each answer is written at once: utf8cert may wait for it
io.stdout:write("utf8cert-protocol 2 " .. CAPABILITIES .. "\n")
for line in io.stdin:lines() do
  -- A request is "ID OPERATION FIELD"; its answer starts with the same ID.
  local id, operation, field = line:match("^(%S+) (%S+) ?(%S*)")
  io.stdout:write((id or "?") .. " " .. answer(operation or "?", field ~= "" and field or EMPTY) .. "\n")
end
