-- Lua 5.4's utf8 library over utf8cert-protocol 2 (harness/PROTOCOL.md), one per MODE:
--
--   lua5.4 lua_codecs.lua MODE
--
--   utf8      decode: the code points utf8.codes(s) yields, refused where it raises (at the
--             offset utf8.len(s) returns as its second result); validate: utf8.len(s) ~= nil;
--             encode: utf8.char
--   utf8-lax  the same with lax = true (utf8.codes(s, true), utf8.len(s, 1, -1, true))
local EMPTY = "-"

-- Each pair of hex digits (either case) to its byte, looked up rather than parsed.
local BYTE_OF = {}
local DIGITS = "0123456789abcdefABCDEF"
for i = 1, #DIGITS do
  for j = 1, #DIGITS do
    local pair = DIGITS:sub(i, i) .. DIGITS:sub(j, j)
    BYTE_OF[pair] = string.char(tonumber(pair, 16))
  end
end

local function bytes_of(field)
  if field == EMPTY then return "" end
  return (field:gsub("..", BYTE_OF))
end

local function hex_of_bytes(data)
  if data == "" then return EMPTY end
  return (data:gsub(".", function(byte) return string.format("%02x", byte:byte()) end))
end

local function code_points_of(field)
  local values = {}
  if field == EMPTY then return values end
  for i = 1, #field, 8 do values[#values + 1] = tonumber(field:sub(i, i + 7), 16) end
  return values
end

-- One line, without the "FILE:LINE: " Lua puts before an error raised in this file.
local function one_line(message)
  return (tostring(message):gsub("^[^:]*%.lua:%d+: ", ""):gsub("%s+", " "))
end

local function decode(data, lax)
  local values = {}
  local ok, why = pcall(function()
    for _, value in utf8.codes(data, lax) do values[#values + 1] = value end
  end)
  if ok then
    -- string.format takes the values in slices: one call per value is slow on a long text.
    local out = {}
    for first = 1, #values, 200 do
      local last = math.min(first + 199, #values)
      out[#out + 1] = string.format(string.rep("%08x", last - first + 1), table.unpack(values, first, last))
    end
    return "ok " .. (#out == 0 and EMPTY or table.concat(out))
  end
  local length, at = utf8.len(data, 1, -1, lax)
  -- utf8.len's position is 1-based; the protocol's offsets start at 0.
  return "refused " .. (length == nil and tostring(at - 1) or "-") .. " " .. one_line(why)
end

local function encode(values)
  local out = {}
  for i, value in ipairs(values) do
    local ok, bytes = pcall(utf8.char, value)
    if not ok then return "refused " .. (i - 1) .. " " .. one_line(bytes) end
    out[#out + 1] = bytes
  end
  return "ok " .. hex_of_bytes(table.concat(out))
end

local function answer(lax, line)
  local operation, field = line:match("^(%S+) ?(%S*)")
  field = (field == nil or field == "") and EMPTY or field
  if operation == "decode" then return decode(bytes_of(field), lax) end
  if operation == "validate" then
    return "ok " .. tostring(utf8.len(bytes_of(field), 1, -1, lax) ~= nil)
  end
  if operation == "encode" then return encode(code_points_of(field)) end
  return "crash unknown request " .. tostring(operation)
end

local modes = { ["utf8"] = false, ["utf8-lax"] = true }
local mode = arg[1]
if modes[mode] == nil then
  io.stderr:write("usage: lua5.4 lua_codecs.lua MODE (utf8, utf8-lax)\n")
  os.exit(2)
end
io.stdout:setvbuf("line")
io.stdout:write("utf8cert-protocol 2 decode validate encode\n")
for line in io.stdin:lines() do
  local id, request = line:gsub("\r$", ""):match("^(%S*) ?(.*)$")
  local ok, reply = pcall(answer, modes[mode], request)
  io.stdout:write(id .. " " .. (ok and reply or ("crash " .. one_line(reply))) .. "\n")
end
