-- Mark the token with a given id revoked; answers its record as stored, or false when no token has that id.
-- KEYS[1] tokens hash; ARGV[1] token id
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local record = cjson.decode(all[i + 1])
  if record.id == ARGV[1] then
    record.revoked = true
    local encoded = cjson.encode(record)
    redis.call('HSET', KEYS[1], all[i], encoded)
    return {all[i], encoded}
  end
end
return false
